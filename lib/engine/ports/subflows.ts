/** Starting child runs for subflow nodes (lib/runs subflows.ts in production). */

/** A subflow step's request to run another workflow. */
export interface SubflowStart {
  /** The run the subflow step belongs to, and the step (a retried attempt of the same step gets the child it started before). */
  parentRunId: string;
  nodeId: string;
  iteration: number;
  /** Error-policy retries of the step before this try (absent = 0): a retry starts a child of its own. */
  retry?: number;
  workflowId: string;
  /** A saved version; default the workflow's newest saved one. */
  version?: number;
  /** The child's inputs, rendered from the parent's data. */
  inputs: Record<string, unknown>;
}

export interface SubflowsPort {
  /**
   * Starts the child run (or answers the one this step started before: idempotent per parent run,
   * node, iteration and error-policy try). Throws with a message for the step's error when it cannot: no such
   * workflow, nothing saved, inputs that do not fit, nesting too deep.
   */
  start(request: SubflowStart): Promise<{ runId: string; workflowName: string }>;
}
