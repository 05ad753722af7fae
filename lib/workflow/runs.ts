/**
 * Runs of a workflow as every layer sees them: what can start one, what a start records about its
 * origin, and how long a human review's comment may be. Client-safe, so the database layer, the run
 * service and the dashboards share one definition.
 */

/**
 * What can start a run (Run.trigger): the editor or a rerun button, the REST API, a schedule, a webhook,
 * an MCP client, another run's subflow node, "retry from the failed step", a fork of another run, or
 * an experiment (one dataset row on one workflow version: not counted by the run-start limit, queued
 * behind interactive runs).
 */
export const runTriggers = [
  "manual",
  "api",
  "schedule",
  "webhook",
  "mcp",
  "rerun",
  "subflow",
  "retry",
  "fork",
  "experiment",
] as const;
export type RunTrigger = (typeof runTriggers)[number];

/** What started a run and, when known, which token, schedule, webhook, tool or run (named as it was then). */
export interface RunOrigin {
  trigger: RunTrigger;
  label?: string | null;
  /**
   * The caller's Idempotency-Key, namespaced by the caller (webhook, API): a start with a key that
   * already started a run answers that run instead of starting another.
   */
  idempotencyKey?: string;
  /** A subflow node's child run: the run and step its end answers, and how deep it nests (label = the parent run's id). */
  parent?: { runId: string; nodeId: string; iteration: number; depth: number };
  /**
   * A retry or fork of another run (label = its id): the run it derives from, the step a fork forked
   * at, and what it reuses of it (the engine's run seed, lib/engine/planner/reuse.ts).
   */
  lineage?: { runId: string; nodeId?: string; iteration?: number; seed: unknown };
}

/** The longest comment a human review's answer may carry (the answer route refuses longer; the run page's field stops there). */
export const ANSWER_COMMENT_MAX = 4000;
