import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { buttonClasses } from "@/components/ui/button";
import { githubConfigured } from "@/lib/auth";
import { currentUser } from "@/lib/auth/session";
import { githubSignInAction } from "../actions";
import { AuthCard } from "../_components/auth-card";
import { SignInForm } from "../_components/sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** Messages for Auth.js's ?error=…&code=… redirects (e.g. a direct POST to the callback). */
function describe(error?: string, code?: string): string | undefined {
  if (!error) return undefined;
  if (code === "rate_limited") return "Too many sign-in attempts. Wait a few minutes and try again.";
  if (error === "CredentialsSignin") return "Incorrect email or password.";
  if (error === "OAuthAccountNotLinked")
    return "This email already has a password account. Sign in with your password.";
  return "Sign-in failed. Try again.";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (k: string) => (typeof params[k] === "string" ? (params[k] as string) : undefined);
  const rawCallback = one("callbackUrl");
  const callbackUrl = rawCallback?.startsWith("/") && !rawCallback.startsWith("//") ? rawCallback : "/workflows";
  if (await currentUser()) redirect(callbackUrl);
  return (
    <AuthCard
      title="Sign in to Weft"
      subtitle="Design multi-agent workflows in plain language."
      footer={
        <>
          No account?{" "}
          <Link href="/sign-up" className="font-medium text-foreground underline-offset-4 hover:underline">
            Create one
          </Link>
        </>
      }
    >
      {one("signed-up") === "1" && (
        <p role="status" className="mb-4 rounded-md border border-border bg-muted/30 px-3 py-2 text-sm">
          If that email was new, your account is ready: sign in with it. If you already had an account, sign in with
          your existing password.
        </p>
      )}
      {one("changed") === "password" && (
        <p role="status" className="mb-4 rounded-md border border-border bg-muted/30 px-3 py-2 text-sm">
          Your password was changed and every session ended. Sign in with the new one.
        </p>
      )}
      <SignInForm callbackUrl={callbackUrl} initialError={describe(one("error"), one("code"))} />
      {githubConfigured() && (
        <form action={githubSignInAction} className="mt-4 border-t border-border pt-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <button type="submit" className={buttonClasses("outline", "md", "w-full")}>
            Continue with GitHub
          </button>
        </form>
      )}
    </AuthCard>
  );
}
