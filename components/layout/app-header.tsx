import { Logo } from "./logo";
import { NavLinks } from "./nav-links";
import { ThemeToggle } from "./theme-toggle";
import { UserMenu } from "./user-menu";
import { WorkspaceSwitcher, type SwitcherWorkspace } from "./workspace-switcher";

/**
 * The top bar of signed-in pages: logo, workspace switcher, navigation (with the runs waiting for a
 * review), theme toggle, account menu.
 */
export function AppHeader({
  user,
  signOutAction,
  waitingRuns = 0,
  workspaces,
  workspaceId,
  switchAction,
}: {
  user: { name: string | null; email: string | null };
  signOutAction: () => Promise<void>;
  waitingRuns?: number;
  workspaces: SwitcherWorkspace[];
  workspaceId: string;
  switchAction: (form: FormData) => Promise<void>;
}) {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/80 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:gap-6 sm:px-6">
        <Logo />
        <WorkspaceSwitcher workspaces={workspaces} currentId={workspaceId} switchAction={switchAction} />
        <NavLinks waitingRuns={waitingRuns} />
        <div className="ml-auto flex shrink-0 items-center gap-2">
          <ThemeToggle />
          <UserMenu name={user.name} email={user.email} signOutAction={signOutAction} />
        </div>
      </div>
    </header>
  );
}
