import { buildGraph } from "./graph";
import { hasErrors, type ValidationIssue } from "./issues";
import { checkLimitCeilings } from "./limits";
import type { Workflow } from "./schema";
import { checkIdsAndEdges, checkLoops, checkReachability } from "./validate-structure";
import {
  checkAgents,
  checkBranches,
  checkInputsOutputs,
  checkToolsAndModels,
  type ValidationContext,
} from "./validate-nodes";
import { checkReferences } from "./validate-refs";
import { checkSubflows } from "./validate-subflows";
import { checkErrorPolicies } from "./validate-error-policy";
import { checkMaps } from "./validate-map";

export { hasErrors, issueSeverity, type Severity, type ValidationCode, type ValidationIssue } from "./issues";
export type { ValidationContext } from "./validate-nodes";
export { templatedFields, type TemplatedField } from "./validate-refs";

/**
 * Checks every rule of docs/workflow-model.md ("Validation") and returns all issues (never throws, never stops at
 * the first). Errors block a run; warnings are shown but allowed. Registry-dependent checks (tools,
 * models, saved agents, subflows' workflows) and the server's limit ceilings run only for the parts
 * of `context` that are given.
 */
export function validate(doc: Workflow, context: ValidationContext = {}): ValidationIssue[] {
  const graph = buildGraph(doc);
  return [
    ...checkIdsAndEdges(doc),
    ...checkReachability(doc, graph),
    ...checkLoops(doc, graph),
    ...checkBranches(doc, graph),
    ...checkErrorPolicies(doc),
    ...checkMaps(doc),
    ...checkAgents(doc, context),
    ...checkToolsAndModels(doc, context),
    ...checkSubflows(doc, context),
    ...checkInputsOutputs(doc, graph),
    ...checkReferences(doc, graph),
    ...(context.ceilings ? checkLimitCeilings(doc, context.ceilings) : []),
  ];
}

/** True when the document has no error-level issue (the engine's precondition to start a run). */
export function isRunnable(doc: Workflow, context: ValidationContext = {}): boolean {
  return !hasErrors(validate(doc, context));
}
