import "server-only";
import { PrismaAdapter } from "@auth/prisma-adapter";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import { z } from "zod";
import { clientIp } from "@/lib/http/client-address";
import { clearSignInFailures, recordSignInFailure, signInRetryAfter } from "@/lib/auth/sign-in-limit";
import { db } from "@/lib/db/client";
import { verifyCredentials } from "@/lib/db/users";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";

/** Thrown by `authorize` while the email+IP pair is rate limited; its `code` reaches the sign-in page. */
export class SignInRateLimited extends CredentialsSignin {
  override code = "rate_limited";
}

const credentialsSchema = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200) });

/** True when both GitHub OAuth variables are set (the sign-in page shows the button only then). */
export const githubConfigured = (): boolean => Boolean(env().AUTH_GITHUB_ID && env().AUTH_GITHUB_SECRET);

function providers(): NextAuthConfig["providers"] {
  const list: NextAuthConfig["providers"] = [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(raw, request) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) return null;
        const { email, password } = parsed.data;
        const ip = clientIp(request.headers);
        if ((await signInRetryAfter(email, ip)) !== null) throw new SignInRateLimited();
        const user = await verifyCredentials(email, password);
        if (!user) {
          await recordSignInFailure(email, ip);
          return null;
        }
        await clearSignInFailures(email, ip);
        return { id: user.id, email: user.email, name: user.name, image: user.image };
      },
    }),
  ];
  const e = env();
  if (e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) {
    list.push(GitHub({ clientId: e.AUTH_GITHUB_ID, clientSecret: e.AUTH_GITHUB_SECRET }));
  }
  return list;
}

/**
 * Auth.js: credentials (argon2id) and, when configured, GitHub. Sessions are JWTs in Auth.js's
 * encrypted cookie (30 days). The config is built lazily so `next build` needs no secrets.
 * Authorisation never relies on middleware (CVE-2025-29927): pages and handlers call `auth()`.
 */
export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: env().AUTH_SECRET,
  trustHost: true,
  adapter: PrismaAdapter(db()),
  session: { strategy: "jwt" },
  pages: { signIn: "/sign-in", error: "/sign-in" },
  providers: providers(),
  logger: {
    // A wrong password is routine (and rate limited), not a server error.
    error: (err) => (err instanceof CredentialsSignin ? logger.debug("sign-in failed", { code: err.code }) : logger.error("auth error", { err })),
    warn: (code) => logger.warn("auth warning", { code }),
    debug: () => {},
  },
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub && session.user) session.user.id = token.sub;
      return session;
    },
  },
}));
