"use client";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** The side panel's tabs. */
export type PanelTab = "inspect" | "issues" | "versions" | "run";

const TABS: { id: PanelTab; label: string }[] = [
  { id: "inspect", label: "Inspect" },
  { id: "issues", label: "Issues" },
  { id: "versions", label: "Versions" },
  { id: "run", label: "Run" },
];

type Props = { tab: PanelTab; onTab: (t: PanelTab) => void; issueCount: number } & Record<PanelTab, ReactNode>;

/** Right-hand panel: inspector, validation issues, version history and the run form, as tabs. */
export function SidePanel({ tab, onTab, issueCount, ...content }: Props) {
  return (
    <aside className="flex w-80 shrink-0 flex-col border-l border-border bg-surface" aria-label="Side panel">
      <div role="tablist" className="flex border-b border-border">
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            aria-selected={tab === t.id}
            data-testid={`tab-${t.id}`}
            onClick={() => onTab(t.id)}
            className={cn(
              "flex-1 px-2 py-2 text-xs font-medium",
              tab === t.id ? "border-b-2 border-primary text-foreground" : "text-muted hover:text-foreground",
            )}
          >
            {t.label}
            {t.id === "issues" && issueCount > 0 && (
              <span
                className="ml-1 rounded-full bg-danger px-1.5 text-[10px] text-danger-foreground"
                data-testid="issues-count"
              >
                {issueCount}
              </span>
            )}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="min-h-0 flex-1 overflow-y-auto p-3">
        {content[tab]}
      </div>
    </aside>
  );
}
