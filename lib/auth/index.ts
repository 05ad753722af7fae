import "server-only";
import { PrismaAdapter } from "@auth/prisma-adapter";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import GitHub from "next-auth/providers/github";
import * as z from "zod";
import { clientIp } from "@/lib/net/client-address";
import { checkSessionToken, endAllSessions } from "@/lib/auth/session-version";
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
 * encrypted cookie (30 days) carrying the user's session version, checked on every use
 * (lib/auth/session-version.ts). The config is built lazily so `next build` needs no secrets.
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
    error: (err) =>
      err instanceof CredentialsSignin
        ? logger.debug("sign-in failed", { code: err.code })
        : logger.error("auth error", { err }),
    warn: (code) => logger.warn("auth warning", { code }),
    debug: () => {},
  },
  callbacks: {
    // every use of a session cookie: refused once the user's session version moved on (sign-out,
    // password change) or the user is gone — Auth.js then clears the cookie
    jwt: ({ token, user }) => checkSessionToken(token, user),
    session({ session, token }) {
      if (token.sub && session.user) {
        session.user.id = token.sub;
        (session.user as { sessionVersion?: number }).sessionVersion = typeof token.sv === "number" ? token.sv : 0;
      }
      return session;
    },
  },
  events: {
    // sign-out ends every session of the user, not only this cookie (JWTs cannot be revoked one by one)
    async signOut(message) {
      const sub = "token" in message ? message.token?.sub : undefined;
      if (sub) await endAllSessions(sub);
    },
  },
}));
