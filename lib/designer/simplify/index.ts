import { diffGrouped, type OperationGroup } from "@/lib/workflow/diff";
import type { Workflow } from "@/lib/workflow/schema";
import { validate, type ValidationContext } from "@/lib/workflow/validate";
import { nodeDiff } from "../pipeline";
import type { NodeDiff } from "../events";
import { factsOf } from "./facts";
import { foldParallel, foldSequential } from "./fold";
import { rules, type Candidate, type RuleId } from "./rules";
import { expectedSaving, type Saving } from "./saving";

export type { RuleId } from "./rules";
export type { Saving } from "./saving";

/**
 * "Simplify this workflow": merges of nodes whose roles overlap (MetaAgent), each a proposal like
 * the designer's — the merged document, its diff and change groups to accept — with the expected
 * saving per run. Pure: nothing runs here; the evaluation gate (the simplify route) runs them.
 */
export interface SimplifyProposal {
  /** Stable within one answer: `<rule>:<node ids>`. */
  id: string;
  rule: RuleId;
  /** The nodes merged, in graph order; the first id left is the merged node. */
  nodes: string[];
  into: string;
  summary: string;
  workflow: Workflow;
  diff: NodeDiff;
  changes: OperationGroup[];
  saving: Saving;
}

const RULE_TEXT: Record<RuleId, string> = {
  sequential: "sequential steps one agent can do in one turn",
  parallel: "parallel siblings that do the same thing",
  fsm: "states that always follow each other",
};

function fold(wf: Workflow, c: Candidate): Workflow {
  return c.rule === "parallel" ? foldParallel(wf, c.keep, c.remove) : foldSequential(wf, c.first, c.second);
}

const errorCount = (wf: Workflow, context: ValidationContext) =>
  validate(wf, context).filter((i) => i.severity === "error").length;

/**
 * Every merge the rules find, each applied alone to a copy of `workflow`, kept only when the merged
 * document has no more validation errors than the original (zero for a valid workflow).
 */
export function proposeSimplifications(workflow: Workflow, context: ValidationContext = {}): SimplifyProposal[] {
  const facts = factsOf(workflow);
  const before = errorCount(workflow, context);
  const out: SimplifyProposal[] = [];
  for (const rule of Object.keys(rules) as RuleId[])
    for (const c of rules[rule](facts)) {
      const merged = fold(workflow, c);
      if (errorCount(merged, context) > before) continue;
      const nodes = c.rule === "parallel" ? [c.keep, ...c.remove] : [c.first, c.second];
      const into = c.rule === "parallel" ? c.keep : c.second;
      out.push({
        id: `${rule}:${nodes.join("+")}`,
        rule,
        nodes,
        into,
        summary: `Merge ${nodes.map((n) => `"${n}"`).join(", ")} into "${into}" (${RULE_TEXT[rule]})`,
        workflow: merged,
        diff: nodeDiff(workflow, merged),
        changes: diffGrouped(workflow, merged),
        saving: expectedSaving(workflow, c),
      });
    }
  return out;
}
