import "server-only";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth";

/** The signed-in user as the session cookie states it. */
export interface SessionUser {
  id: string;
  email: string | null;
  name: string | null;
  /** The session version the cookie was made with (lib/auth/session-version.ts). */
  sessionVersion: number;
}

/** The current user, or null when signed out. Authorisation happens here and in lib/db, never in middleware. */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const sessionVersion = (session.user as { sessionVersion?: number }).sessionVersion ?? 0;
  return { id, email: session.user?.email ?? null, name: session.user?.name ?? null, sessionVersion };
}

/** The current user; redirects to /sign-in (with a return path, default none) when signed out. */
export async function requireUser(returnTo?: string): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(returnTo ? `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}` : "/sign-in");
  return user;
}
