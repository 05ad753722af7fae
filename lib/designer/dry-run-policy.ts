import type { Workflow } from "@/lib/workflow/schema";
import type { DesignResult } from "./events";

/** A run's sample inputs → whether the proposal worked, and a readable trace. Injected (engine-side). */
export type DryRunFn = (
  workflow: Workflow,
  sampleInputs: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<{ ok: boolean; trace: string }>;

/**
 * "always": every proposal is dry-run (side-effecting tools skipped); "auto": only proposals whose
 * tools have no side effects.
 */
export type DryRunPolicy = "always" | "auto";

/** The tools a proposal uses: its agents' tools and its tool nodes' tools. */
export function toolsUsed(wf: Workflow): { name: string; placeholder: boolean }[] {
  const refs = [...wf.agents.flatMap((a) => a.tools), ...wf.nodes.flatMap((n) => (n.type === "tool" ? [n.tool] : []))];
  const seen = new Map<string, boolean>();
  for (const r of refs) seen.set(r.name, (seen.get(r.name) ?? false) || Boolean(r.placeholder));
  return [...seen].map(([name, placeholder]) => ({ name, placeholder }));
}

/**
 * Whether to dry-run a finished proposal. Never one with subflow nodes (a dry run starts no child
 * runs: they would be real runs of the user's saved workflows). With "auto", not one that uses a tool
 * with side effects or a tool still to create (what it does is not known yet).
 */
export function dryRunDecision(
  result: DesignResult,
  policy: DryRunPolicy,
  tools: readonly { name: string; sideEffect?: boolean }[],
): { run: true } | { run: false; why: string } {
  if (result.workflow.nodes.some((n) => n.type === "subflow")) {
    return {
      run: false,
      why: "The proposal runs saved workflows as subflows; a dry run would start real runs of them, so it was not dry-run.",
    };
  }
  if (policy === "always") return { run: true };
  const effects = toolsUsed(result.workflow).filter(
    (t) => t.placeholder || tools.find((x) => x.name === t.name)?.sideEffect !== false,
  );
  if (effects.length === 0) return { run: true };
  const names = effects.map((t) => t.name).join(", ");
  return {
    run: false,
    why: `The proposal uses tools with side effects or still to create (${names}), so it was not dry-run automatically. Tick "Dry run" to run it once with those tools skipped.`,
  };
}
