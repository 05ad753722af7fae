"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import * as z from "zod";
import { signIn } from "@/lib/auth";
import { signUpRetryAfter } from "@/lib/auth/sign-up-limit";
import { clientIp } from "@/lib/net/client-address";
import { signInRetryAfter } from "@/lib/auth/sign-in-limit";
import { createUser, signUpSchema } from "@/lib/db/users";
import { AppError } from "@/lib/errors";

/** What a sign-in/up form shows after a failed submit. `retryAfter` (s) means rate limited (HTTP 429's meaning). */
export interface AuthFormState {
  error?: string;
  fieldErrors?: Partial<Record<"name" | "email" | "password", string>>;
  retryAfter?: number;
  values?: { name?: string; email?: string };
}

/** Only same-site paths, so a crafted link cannot bounce a fresh session to another site. */
const safePath = z
  .string()
  .regex(/^\/(?![/\\])[^\s]*$/)
  .catch("/workflows");

const signInSchema = z.object({
  email: z.string().trim().min(1, "Enter your email").max(254),
  password: z.string().min(1, "Enter your password").max(200),
  callbackUrl: safePath,
});

const limited = (seconds: number, email: string): AuthFormState => ({
  error: `Too many sign-in attempts. Try again in ${seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`}.`,
  retryAfter: seconds,
  values: { email },
});

/** Credentials sign-in: rate limited per email+IP before any password check. */
export async function signInAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const parsed = signInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const f = z.flattenError(parsed.error).fieldErrors;
    return {
      fieldErrors: { email: f.email?.[0], password: f.password?.[0] },
      values: { email: String(form.get("email") ?? "") },
    };
  }
  const { email, password, callbackUrl } = parsed.data;
  const wait = await signInRetryAfter(email, clientIp(await headers()));
  if (wait !== null) return limited(wait, email);
  try {
    await signIn("credentials", { email, password, redirect: false });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const code = (err as AuthError & { code?: string }).code;
    if (code === "rate_limited")
      return limited((await signInRetryAfter(email, clientIp(await headers()))) ?? 60, email);
    return { error: "Incorrect email or password.", values: { email } };
  }
  redirect(callbackUrl);
}

/**
 * Creates a password account and sends the person to sign in. It answers the same whether the
 * email was new or already registered (a taken email changes nothing and says nothing), so the form
 * cannot be used to learn who has an account; creating one costs the same argon2 hash either way.
 * Sign-ups are limited per client address (WEFT_SIGN_UP_LIMIT an hour).
 */
export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const raw = Object.fromEntries(form);
  const values = { name: String(raw.name ?? ""), email: String(raw.email ?? "") };
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const f = z.flattenError(parsed.error).fieldErrors;
    return { fieldErrors: { name: f.name?.[0], email: f.email?.[0], password: f.password?.[0] }, values };
  }
  const wait = await signUpRetryAfter(clientIp(await headers()));
  if (wait !== null)
    return {
      error: `Too many sign-ups from this address. Try again in ${Math.ceil(wait / 60)} minutes.`,
      retryAfter: wait,
      values,
    };
  try {
    await createUser(parsed.data);
  } catch (err) {
    if (!(err instanceof AppError && err.code === "conflict")) throw err;
  }
  redirect("/sign-in?signed-up=1");
}

/** Starts the GitHub OAuth flow (only offered when AUTH_GITHUB_ID/SECRET are set). */
export async function githubSignInAction(form: FormData): Promise<void> {
  await signIn("github", { redirectTo: safePath.parse(form.get("callbackUrl") ?? "/workflows") });
}
