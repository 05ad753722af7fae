"use client";
import Link from "next/link";
import { Fragment } from "react";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const LINKS = [
  { href: "/workflows", label: "Workflows" },
  { href: "/runs", label: "Runs" },
  { href: "/datasets", label: "Datasets" },
  { href: "/agents", label: "Agents" },
  { href: "/tools", label: "Tools" },
  { href: "/knowledge", label: "Knowledge" },
  { href: "/settings", label: "Settings" },
] as const;

/**
 * The main navigation; the current section is highlighted and marked aria-current. Runs that wait
 * for a person (a human review) show as a count next to Runs, linking to them.
 */
export function NavLinks({ waitingRuns = 0 }: { waitingRuns?: number }) {
  const pathname = usePathname();
  return (
    // on a narrow screen the links scroll sideways inside the bar instead of widening the page
    <nav aria-label="Main" className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto">
      {LINKS.map((l) => {
        const active = pathname === l.href || pathname.startsWith(`${l.href}/`);
        return (
          <Fragment key={l.href}>
            <Link
              href={l.href}
              aria-current={active ? "page" : undefined}
              className={cn(
                "shrink-0 whitespace-nowrap rounded-md px-3 py-1.5 text-sm transition-colors",
                active ? "bg-surface-2 font-medium text-foreground" : "text-muted hover:text-foreground",
              )}
            >
              {l.label}
            </Link>
            {l.href === "/runs" && waitingRuns > 0 && (
              <Link
                href="/runs?status=waiting"
                className="shrink-0 whitespace-nowrap rounded-full border border-warning/30 bg-warning/15 px-2 py-0.5 text-xs font-medium text-foreground hover:bg-warning/25"
                title="Runs waiting for your review"
                data-testid="nav-waiting"
              >
                {waitingRuns} waiting
              </Link>
            )}
          </Fragment>
        );
      })}
    </nav>
  );
}
