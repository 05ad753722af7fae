"use client";
import Link from "next/link";
import { useRef } from "react";
import type { Role } from "@/lib/roles";

export interface SwitcherWorkspace {
  id: string;
  name: string;
  role: Role;
  personal: boolean;
}

/**
 * The header's workspace switcher: choosing one posts the form (a server action sets the cookie and
 * opens its workflows); the gear opens the current workspace's members and settings.
 */
export function WorkspaceSwitcher({
  workspaces,
  currentId,
  switchAction,
}: {
  workspaces: SwitcherWorkspace[];
  currentId: string;
  switchAction: (form: FormData) => Promise<void>;
}) {
  const form = useRef<HTMLFormElement>(null);
  const current = workspaces.find((w) => w.id === currentId);
  return (
    <div className="flex min-w-0 items-center gap-1">
      <form ref={form} action={switchAction}>
        <label className="sr-only" htmlFor="workspace-switcher">
          Workspace
        </label>
        <select
          id="workspace-switcher"
          name="workspaceId"
          key={currentId}
          data-testid="workspace-switcher"
          defaultValue={currentId}
          onChange={() => form.current?.requestSubmit()}
          className="max-w-44 truncate rounded-md border border-border bg-background px-2 py-1 text-sm"
        >
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
              {w.personal ? "" : ` · ${w.role}`}
            </option>
          ))}
        </select>
      </form>
      <Link
        href="/settings/workspace"
        className="rounded-md px-1.5 py-1 text-xs text-muted hover:text-foreground"
        data-testid="workspace-settings-link"
        title={current ? `${current.name}: members and settings` : "Workspace settings"}
      >
        {current?.role ?? ""}
      </Link>
    </div>
  );
}
