import type { SVGProps } from "react";
import type { NodeKind } from "@/lib/workflow/schema";

/**
 * Node kinds as every view shows them: the word (lib/workflow/registry's label, asserted equal by the
 * vocabulary test; this table carries no zod so the canvas loads without it), a one-line hint, the
 * icon and its tile colours (light and dark). The palette, canvas nodes, run dashboard and share page
 * read this one table.
 */
/** `icon`: one SVG path (24 × 24, stroked), so an icon is two elements on every canvas node. */
type KindTerm = { label: string; hint: string; tile: string; icon: string };

const KINDS: Record<NodeKind, KindTerm> = {
  start: {
    label: "Start",
    hint: "Entry point with the run's inputs",
    tile: "bg-emerald-100 text-emerald-700 dark:bg-emerald-500/20 dark:text-emerald-300",
    icon: "m7 4 12 8-12 8z",
  },
  agent: {
    label: "Agent",
    hint: "An LLM agent with tools and branches",
    tile: "bg-sky-100 text-sky-700 dark:bg-sky-500/20 dark:text-sky-300",
    icon: "M7 8h10a3 3 0 0 1 3 3v6a3 3 0 0 1 -3 3h-10a3 3 0 0 1 -3 -3v-6a3 3 0 0 1 3 -3zM12 8V4M9 14h.01M15 14h.01",
  },
  router: {
    label: "Router",
    hint: "Pick one branch (LLM or expression)",
    tile: "bg-amber-100 text-amber-700 dark:bg-amber-500/20 dark:text-amber-300",
    icon: "M4 12h6l4-6h6M10 12l4 6h6M17 3l3 3-3 3M17 15l3 3-3 3",
  },
  tool: {
    label: "Tool",
    hint: "Call a tool, no LLM",
    tile: "bg-teal-100 text-teal-700 dark:bg-teal-500/20 dark:text-teal-300",
    icon: "M14.7 6.3a4 4 0 0 0-5.4 5.4L4 17l3 3 5.3-5.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4z",
  },
  orchestrator: {
    label: "Orchestrator",
    hint: "Hands sub-tasks to worker agents",
    tile: "bg-violet-100 text-violet-700 dark:bg-violet-500/20 dark:text-violet-300",
    icon: "M9.5 6a2.5 2.5 0 1 0 5.0 0a2.5 2.5 0 1 0 -5.0 0M2.5 18a2.5 2.5 0 1 0 5.0 0a2.5 2.5 0 1 0 -5.0 0M16.5 18a2.5 2.5 0 1 0 5.0 0a2.5 2.5 0 1 0 -5.0 0M12 8.5v3.5M12 12l-5.5 4M12 12l5.5 4",
  },
  human: {
    label: "Human review",
    hint: "A person picks a branch and fills in fields",
    tile: "bg-fuchsia-100 text-fuchsia-700 dark:bg-fuchsia-500/20 dark:text-fuchsia-300",
    icon: "M8 8a4 4 0 1 0 8 0a4 4 0 1 0 -8 0M4 21a8 8 0 0 1 16 0",
  },
  subflow: {
    label: "Subflow",
    hint: "Runs another saved workflow as one step",
    tile: "bg-cyan-100 text-cyan-700 dark:bg-cyan-500/20 dark:text-cyan-300",
    icon: "M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1 -3 3h-12a3 3 0 0 1 -3 -3v-12a3 3 0 0 1 3 -3zM9.5 8h5.0a1.5 1.5 0 0 1 1.5 1.5v5.0a1.5 1.5 0 0 1 -1.5 1.5h-5.0a1.5 1.5 0 0 1 -1.5 -1.5v-5.0a1.5 1.5 0 0 1 1.5 -1.5z",
  },
  map: {
    label: "Map",
    hint: "Runs one step for every item of a list",
    tile: "bg-lime-100 text-lime-700 dark:bg-lime-500/20 dark:text-lime-300",
    icon: "M4 5h4M4 12h4M4 19h4M11 5h9M11 12h9M11 19h9",
  },
  end: {
    label: "End",
    hint: "Writes the outputs, finishes the run",
    tile: "bg-zinc-200 text-zinc-800 dark:bg-zinc-500/25 dark:text-zinc-200",
    icon: "M8 6h8a2 2 0 0 1 2 2v8a2 2 0 0 1 -2 2h-8a2 2 0 0 1 -2 -2v-8a2 2 0 0 1 2 -2z",
  },
  abort: {
    label: "Abort",
    hint: "Ends the run as aborted",
    tile: "bg-red-100 text-red-700 dark:bg-red-500/20 dark:text-red-300",
    icon: "M18 6 6 18M6 6l12 12",
  },
};

/** Every kind's word, hint and look. */
export const KIND_TERMS: Readonly<Record<NodeKind, Readonly<KindTerm>>> = KINDS;

/** A kind's icon in its tile (the canvas node header, the palette). */
export function KindIcon({
  kind,
  className = "size-7",
  ...svg
}: { kind: NodeKind; className?: string } & SVGProps<SVGSVGElement>) {
  const term = KINDS[kind];
  return (
    <span
      aria-hidden
      className={`inline-flex shrink-0 items-center justify-center rounded-md ${term.tile} ${className}`}
    >
      <svg
        viewBox="0 0 24 24"
        width={16}
        height={16}
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        {...svg}
      >
        <path d={term.icon} />
      </svg>
    </span>
  );
}
