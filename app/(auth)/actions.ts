"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth";
import { clientIp } from "@/lib/http/client-address";
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
    return { fieldErrors: { email: f.email?.[0], password: f.password?.[0] }, values: { email: String(form.get("email") ?? "") } };
  }
  const { email, password, callbackUrl } = parsed.data;
  const wait = await signInRetryAfter(email, clientIp(await headers()));
  if (wait !== null) return limited(wait, email);
  try {
    await signIn("credentials", { email, password, redirect: false });
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const code = (err as AuthError & { code?: string }).code;
    if (code === "rate_limited") return limited((await signInRetryAfter(email, clientIp(await headers()))) ?? 60, email);
    return { error: "Incorrect email or password.", values: { email } };
  }
  redirect(callbackUrl);
}

/** Creates a password account, then signs it in and opens the workflows list. */
export async function signUpAction(_prev: AuthFormState, form: FormData): Promise<AuthFormState> {
  const raw = Object.fromEntries(form);
  const values = { name: String(raw.name ?? ""), email: String(raw.email ?? "") };
  const parsed = signUpSchema.safeParse(raw);
  if (!parsed.success) {
    const f = z.flattenError(parsed.error).fieldErrors;
    return { fieldErrors: { name: f.name?.[0], email: f.email?.[0], password: f.password?.[0] }, values };
  }
  try {
    await createUser(parsed.data);
  } catch (err) {
    if (err instanceof AppError && err.code === "conflict") return { fieldErrors: { email: err.message }, values };
    throw err;
  }
  await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  redirect("/workflows");
}

/** Starts the GitHub OAuth flow (only offered when AUTH_GITHUB_ID/SECRET are set). */
export async function githubSignInAction(form: FormData): Promise<void> {
  await signIn("github", { redirectTo: safePath.parse(form.get("callbackUrl") ?? "/workflows") });
}
