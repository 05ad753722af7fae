import type { Workflow } from "@/lib/workflow/schema";
import type { SubflowWorkflow } from "@/lib/workflow/validate-nodes";
import type { LocalFix } from "./fixes";
import { repairAgentRefs, repairSavedAgents, repairToolNames, type RefContext } from "./repair-agents";
import { fillConditions, repairOutputs, repairTemplates } from "./repair-data";
import { Draft, capLoops, dropBadEdges, ensureEnd, ensureStart, orientEdges } from "./repair-graph";
import { repairMapItems } from "./repair-map";
import { repairSubflows } from "./repair-subflows";
import {
  loopContinuations,
  loopExits,
  routerMinimum,
  strayTerminals,
  wireOutcomes,
  wireUnreachable,
} from "./repair-wiring";

export { fix, summariseFixes, type LocalFix, type RepairKind } from "./fixes";
export { defaultCapOf, repairAnswer } from "./repair-answer";
export { repairNode } from "./repair-nodes";
export { repairDesignEdges } from "./repair-edges";
export { slug } from "./resolve";

/**
 * Deterministic repairs: every problem with an obvious fix is fixed here, without a model call, and
 * each fix is recorded (the chat lists them). The answer-level ones run before compiling
 * (repair-answer.ts); these run on the document, for new designs and edits alike, in this order:
 * references (agents, saved agents, tools, subflows), edges the graph cannot hold, start and end,
 * cycles and loops, wiring (unreachable nodes, routers short of branches, unwired outcomes, stray terminals, nodes that can only
 * loop), loop caps and continuations, branch conditions, outputs, templates, map lists. What is left — a
 * reference to a node that does not run first, a subflow naming no workflow — goes to the model.
 */

/** What document repairs resolve references against. */
export interface RepairContext extends RefContext {
  /** The owner's workflows a subflow may run (with their inputs). Default: subflows not checked. */
  workflows?: readonly SubflowWorkflow[];
}

/** Every document-level repair, in order; `fixes` receives what was fixed. */
export function repairDocument(input: Workflow, ctx: RepairContext, fixes: LocalFix[]): Workflow {
  const d = new Draft(input, fixes);
  repairAgentRefs(d, ctx);
  repairSavedAgents(d, ctx);
  repairToolNames(d, ctx);
  repairSubflows(d, ctx.workflows);
  dropBadEdges(d);
  ensureStart(d);
  ensureEnd(d);
  orientEdges(d);
  wireUnreachable(d);
  orientEdges(d);
  routerMinimum(d);
  wireOutcomes(d);
  strayTerminals(d);
  loopExits(d);
  capLoops(d);
  loopContinuations(d);
  fillConditions(d);
  repairOutputs(d);
  repairTemplates(d);
  repairMapItems(d);
  return d.wf;
}
