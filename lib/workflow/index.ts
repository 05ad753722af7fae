/**
 * Public API of lib/workflow: the workflow document, its graph utilities, validation, templates and
 * expressions, edit operations and diffs, the node-kind registry, pattern templates, seed-format
 * importers and JSON import/export. Pure and isomorphic (zod only): safe in the browser, the
 * engine and workers alike.
 */
export * from "./schema";
export {
  checkTemplate,
  formatValue,
  renameNodeInTemplate,
  renderTemplate,
  renderTemplateValue,
  resolveRef,
  templateRefs,
  type TemplateContext,
  type TemplateIssue,
  type TemplateIssueCode,
  type TemplateRef,
} from "./template";
export {
  compileExpression,
  evaluateCondition,
  evaluateExpression,
  ExpressionError,
  expressionRefs,
  parseExpression,
  renameNodeInExpression,
  truthy,
  type CompiledExpression,
  type Expr,
  type ExpressionRef,
} from "./expression";
export {
  buildGraph,
  edgesOf,
  exclusivelyThrough,
  forwardAncestors,
  forwardCycles,
  forwardDescendants,
  forwardDominators,
  goesBack,
  nodesReachingTerminal,
  propagateDeadEdges,
  reachable,
  reachableFromStart,
  topologicalOrder,
  upstreamOf,
  type EdgeSet,
  type Graph,
} from "./graph";
export {
  hasErrors,
  isRunnable,
  issueSeverity,
  templatedFields,
  validate,
  type Severity,
  type TemplatedField,
  type ValidationCode,
  type ValidationContext,
  type ValidationIssue,
} from "./validate";
export { defaultNode, nodeKindRegistry, type NodeKindRegistry, type NodeKindSpec } from "./registry";
export {
  applyOperation,
  applyOperations,
  OperationError,
  operationSchema,
  tryApplyOperations,
  type Operation,
  type OperationErrorCode,
  type OperationType,
} from "./operations";
export { diffDocuments, diffGrouped, type OperationGroup } from "./diff";
export { deepEqual } from "./equal";
export { instantiateTemplate, workflowTemplates, type PatternId, type WorkflowTemplate } from "./templates";
export { importAutoAgentXml, normalizeAction } from "./importers/autoagent-xml";
export { importMetaAgentFsm, metaAgentFsmSchema, type MetaAgentFsm } from "./importers/metaagent-fsm";
export { layout as layoutWorkflow, type ImportIssue, type ImportResult } from "./importers/common";
export { parseXml, XmlError, type XmlElement, type XmlNode } from "./importers/xml";
export {
  exportWorkflow,
  formatImportErrors,
  importWorkflow,
  migrations,
  parseWorkflow,
  type ImportError,
  type ImportWorkflowResult,
} from "./io";
export {
  itemsList,
  MAP_DEFAULT_CONCURRENCY,
  MAP_MAX_CONCURRENCY,
  MAP_MAX_ITEMS,
  mapBodyNode,
  mapConcurrency,
  mapItemErrorModes,
  mapItemsId,
  parseMapItemsId,
  stepNode,
  type MapItemErrorMode,
  type MapOutput,
} from "./map";
