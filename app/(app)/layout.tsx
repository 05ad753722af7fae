import { type ReactNode } from "react";
import { AppHeader } from "@/components/layout/app-header";
import { signOut } from "@/lib/auth";
import { requireAccess } from "@/lib/auth/access";
import { countWaitingRuns } from "@/lib/db/runs";
import { listWorkspaces } from "@/lib/db/workspaces";
import { switchWorkspaceAction } from "./settings/workspace/actions";

/** Signs the user out and returns to the sign-in page. */
async function signOutAction(): Promise<void> {
  "use server";
  await signOut({ redirectTo: "/sign-in" });
}

/** Every page below requires a session and a workspace (checked here and again by each page's lib/db calls). */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const access = await requireAccess("read");
  const [waiting, workspaces] = await Promise.all([
    countWaitingRuns(access.workspaceId),
    listWorkspaces(access.userId),
  ]);
  return (
    <div className="min-h-dvh">
      <AppHeader
        user={access.user}
        signOutAction={signOutAction}
        waitingRuns={waiting}
        workspaces={workspaces}
        workspaceId={access.workspaceId}
        switchAction={switchWorkspaceAction}
      />
      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</main>
    </div>
  );
}
