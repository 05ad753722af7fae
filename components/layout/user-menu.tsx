"use client";
import { DropdownItem, DropdownLabel, DropdownMenu, DropdownSeparator } from "@/components/ui/dropdown-menu";
import { LogOutIcon } from "@/components/ui/icons";

/** Avatar button with the user's name/email and "Sign out" (a server action passed in by the layout). */
export function UserMenu({
  name,
  email,
  signOutAction,
}: {
  name: string | null;
  email: string | null;
  signOutAction: () => Promise<void>;
}) {
  const initials = (name || email || "?")
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((s) => s[0]?.toUpperCase())
    .join("");
  return (
    <DropdownMenu
      label="Account menu"
      triggerClassName="flex size-8 items-center justify-center rounded-full bg-primary/15 text-xs font-semibold text-primary hover:bg-primary/25 cursor-pointer focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      trigger={initials}
    >
      <DropdownLabel>
        <span className="block font-medium text-foreground">{name || "Signed in"}</span>
        <span className="block truncate">{email}</span>
      </DropdownLabel>
      <DropdownSeparator />
      <form action={signOutAction}>
        <DropdownItem type="submit">
          <LogOutIcon /> Sign out
        </DropdownItem>
      </form>
    </DropdownMenu>
  );
}
