import { type ReactNode } from "react";
import { AppHeader } from "@/components/layout/app-header";
import { signOut } from "@/lib/auth";
import { requireUser } from "@/lib/auth/session";
import { countWaitingRuns } from "@/lib/db/runs";

/** Signs the user out and returns to the sign-in page. */
async function signOutAction(): Promise<void> {
  "use server";
  await signOut({ redirectTo: "/sign-in" });
}

/** Every page below requires a session (checked here and again by each page's lib/db calls). */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const waiting = await countWaitingRuns(user.id);
  return (
    <div className="min-h-dvh">
      <AppHeader user={user} signOutAction={signOutAction} waitingRuns={waiting} />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</main>
    </div>
  );
}
