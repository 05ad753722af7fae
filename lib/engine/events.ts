import * as z from "zod";
import { errorClassSchema } from "@/lib/workflow/error-policy";

/**
 * The run event log (rule R8): every state change of a run is one of these, appended to the run's
 * log with a per-run sequence number *before* it is sent anywhere. The SSE route and the browser
 * parse them with `runEventSchema` / `runEventEnvelopeSchema`. Isomorphic: zod only.
 */

/**
 * Run statuses (same names as Prisma's RunStatus). Terminal = all but queued/running/waiting (R9).
 * `waiting`: only human reviews are left to answer; no worker holds the run until one is answered.
 */
export const runStatuses = [
  "queued",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "aborted",
  "budget_exhausted",
  "cancelled",
] as const;
export const runStatusSchema = z.enum(runStatuses);
export type RunStatus = z.infer<typeof runStatusSchema>;

/** The statuses a run ends in; each comes with a reason (R9). */
export const terminalRunStatuses = ["succeeded", "failed", "aborted", "budget_exhausted", "cancelled"] as const;
export const terminalRunStatusSchema = z.enum(terminalRunStatuses);
export type TerminalRunStatus = z.infer<typeof terminalRunStatusSchema>;
export const isTerminalRunStatus = (s: RunStatus): s is TerminalRunStatus =>
  (terminalRunStatuses as readonly string[]).includes(s);

/**
 * Step statuses (same names as Prisma's StepStatus). `waiting`: a human review asked and not yet
 * answered. `retrying`: the step's try failed and its error policy retries it after a backoff.
 */
export const stepStatuses = [
  "pending",
  "running",
  "waiting",
  "retrying",
  "succeeded",
  "failed",
  "skipped",
  "timed_out",
  "cancelled",
] as const;
export const stepStatusSchema = z.enum(stepStatuses);
export type StepStatus = z.infer<typeof stepStatusSchema>;

/** Which step an event is about: a node's iteration (1-based) and attempt (1-based, bumped on re-dispatch). */
const stepRef = {
  nodeId: z.string(),
  iteration: z.number().int().positive(),
};

const tokens = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof tokens>;
export const tokenUsageSchema = tokens;

export const runStartedEvent = z.object({
  type: z.literal("run_started"),
  inputs: z.record(z.string(), z.unknown()),
  /** true when a worker picked up a run that had already started (crash recovery, hand-back). */
  resumed: z.boolean().default(false),
  /** Steps re-dispatched because their previous attempt never committed a result (R7). */
  redispatched: z.array(z.object({ ...stepRef, attempt: z.number().int().positive() })).default([]),
});

export const stepStartedEvent = z.object({
  type: z.literal("step_started"),
  ...stepRef,
  attempt: z.number().int().positive(),
  kind: z.string(),
  /** Present when a loop edge re-entered this node: the source's output (rendered as {{feedback}}). */
  feedback: z.unknown().optional(),
  /** An error-policy retry: how many retries came before this try (1 = the first retry). */
  retry: z.number().int().positive().optional(),
  /**
   * A retry or fork reusing a result of the run it derives from: the step is not executed, its result
   * (the next event) is the source step's (`edited`: the fork's edited value).
   */
  reused: z.object({ runId: z.string(), edited: z.boolean().default(false) }).optional(),
});

/** Something visible happened inside a running step (an agent turn, a tool call, a format retry). */
export const stepProgressEvent = z.object({
  type: z.literal("step_progress"),
  ...stepRef,
  message: z.string(),
  detail: z.record(z.string(), z.unknown()).optional(),
});

export const stepFinishedEvent = z.object({
  type: z.literal("step_finished"),
  ...stepRef,
  status: z.enum(["succeeded", "failed", "timed_out", "cancelled", "skipped"]),
  branch: z.string().optional(),
  output: z.unknown().optional(),
  error: z.string().optional(),
  promptTokens: z.number().int().nonnegative().default(0),
  completionTokens: z.number().int().nonnegative().default(0),
  latencyMs: z.number().int().nonnegative().optional(),
  /** Why a failed (or recovered) try failed, as classified for error policies. */
  errorClass: errorClassSchema.optional(),
  /**
   * The step failed and its error policy recovered: `fallback` (status succeeded, output = the
   * policy's fallback) or `error_branch` (the error outcome followed, output = the error).
   */
  recovered: z.enum(["fallback", "error_branch"]).optional(),
  /** A map item's step: the attempt that finished (a node's step rows know it from the planner's node state). */
  attempt: z.number().int().positive().optional(),
});

/**
 * A step's try failed and its error policy retries it: the try is over (its error and usage here),
 * the next one starts at `retryAt` (after `delayMs`), as retry number `retry` of `maxRetries`.
 */
export const stepRetryingEvent = z.object({
  type: z.literal("step_retrying"),
  ...stepRef,
  attempt: z.number().int().positive(),
  error: z.string(),
  errorClass: errorClassSchema,
  retry: z.number().int().positive(),
  maxRetries: z.number().int().positive(),
  delayMs: z.number().int().nonnegative(),
  /** ISO-8601 time the next try is due. */
  retryAt: z.string(),
  promptTokens: z.number().int().nonnegative().default(0),
  completionTokens: z.number().int().nonnegative().default(0),
  latencyMs: z.number().int().nonnegative().optional(),
});

/**
 * A map node's step found its items: `total` item steps follow, stored under node id `stepId` with
 * iteration = the item's 1-based index, at most `concurrency` running at once. The map's own step
 * finishes when they are done (output: the results in item order and the counts).
 */
export const mapStartedEvent = z.object({
  type: z.literal("map_started"),
  ...stepRef,
  stepId: z.string(),
  total: z.number().int().nonnegative(),
  concurrency: z.number().int().positive(),
});

export const branchTakenEvent = z.object({
  type: z.literal("branch_taken"),
  ...stepRef,
  branch: z.string(),
  /** Targets of the forward edges followed. */
  targets: z.array(z.string()),
  /** Nodes marked skipped by dead-path elimination as a consequence (R3). */
  skipped: z.array(z.string()).default([]),
});

export const loopIterationEvent = z.object({
  type: z.literal("loop_iteration"),
  edgeId: z.string(),
  source: z.string(),
  target: z.string(),
  /** The target's loop iteration now starting (2 = first re-entry). */
  iteration: z.number().int().positive(),
  maxIterations: z.number().int().positive(),
});

export const loopExhaustedEvent = z.object({
  type: z.literal("loop_exhausted"),
  edgeId: z.string(),
  source: z.string(),
  target: z.string(),
  maxIterations: z.number().int().positive(),
  action: z.enum(["continue", "abort"]),
  /** onExhausted=continue: the outcome followed instead. */
  continueWith: z.string().optional(),
});

export const handoffEvent = z.object({
  type: z.literal("handoff"),
  ...stepRef,
  worker: z.string(),
  /** handoff = orchestrator → worker (task set); handback = worker → orchestrator (result set). */
  phase: z.enum(["handoff", "handback"]),
  task: z.string().optional(),
  result: z.string().optional(),
  error: z.string().optional(),
});

export const tokensUsedEvent = z.object({
  type: z.literal("tokens_used"),
  ...stepRef,
  model: z.string(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  latencyMs: z.number().int().nonnegative().optional(),
  /** Run totals after this call (the shared budget, R6). */
  runPromptTokens: z.number().int().nonnegative(),
  runCompletionTokens: z.number().int().nonnegative(),
});

export const cancelRequestedEvent = z.object({
  type: z.literal("cancel_requested"),
  reason: z.string().optional(),
});

/** A human review step asks its question: the run page offers the choices and fields to the run's owner. */
export const inputRequestedEvent = z.object({
  type: z.literal("input_requested"),
  ...stepRef,
  /** The node's prompt, rendered with the run's data. */
  prompt: z.string(),
  choices: z.array(z.object({ id: z.string(), label: z.string() })),
  fields: z
    .array(
      z.object({
        key: z.string(),
        type: z.string(),
        description: z.string().default(""),
        required: z.boolean().default(true),
      }),
    )
    .default([]),
  /** How long it waits for an answer (from the step's start), and the choice then taken (none: the step times out). */
  timeoutMs: z.number().int().positive().optional(),
  timeoutChoice: z.string().optional(),
  /**
   * Set when an agent wrote a tool during the run and waits for its approval (choices approve /
   * reject): the code, its hash (what approving approves) and its tests. Content: a share link
   * without content drops it.
   */
  tool: z
    .object({
      name: z.string(),
      description: z.string(),
      versionId: z.string(),
      version: z.number().int(),
      codeHash: z.string(),
      code: z.string(),
      tests: z.array(
        z.object({
          input: z.record(z.string(), z.unknown()),
          expected: z.unknown(),
          passed: z.boolean(),
          actual: z.unknown().optional(),
          error: z.string().optional(),
        }),
      ),
      allowedDomains: z.array(z.string()),
      rounds: z.number().int().nonnegative(),
    })
    .optional(),
});

/** What a human review asks (the input_requested event without its step reference). */
export type InputRequest = Omit<z.infer<typeof inputRequestedEvent>, "type" | "nodeId" | "iteration">;

/** A subflow step started its child run (or found the one it started before a crash): the step waits, holding no worker, until that run ends. */
export const subflowStartedEvent = z.object({
  type: z.literal("subflow_started"),
  ...stepRef,
  /** The child run and the workflow it runs. */
  runId: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  /** How long the step waits for the child's end (the node's timeoutMs); then it times out. */
  timeoutMs: z.number().int().positive().optional(),
});

/** What a waiting subflow step waits for (the subflow_started event without its step reference). */
export type SubflowRequest = { kind: "subflow" } & Omit<
  z.infer<typeof subflowStartedEvent>,
  "type" | "nodeId" | "iteration"
>;

/** What a waiting step waits for: a person's answer to a human review, or a child run's end. */
export type WaitRequest = InputRequest | SubflowRequest;

export const isSubflowRequest = (r: WaitRequest): r is SubflowRequest => (r as { kind?: string }).kind === "subflow";

/** Nothing runs any more but human reviews wait for answers: the run is `waiting` and no worker holds it. */
export const runWaitingEvent = z.object({
  type: z.literal("run_waiting"),
  steps: z.array(z.object(stepRef)),
});

export const runFinishedEvent = z.object({
  type: z.literal("run_finished"),
  status: terminalRunStatusSchema,
  reason: z.string(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  /** For budget_exhausted: the limit that was hit (maxSteps, tokenBudget, runTimeoutMs, maxTurnsPerVisit, loop:<edgeId>). */
  limit: z.string().optional(),
});

/** One run event (without its sequence number). Discriminated on `type`. */
export const runEventSchema = z.discriminatedUnion("type", [
  runStartedEvent,
  stepStartedEvent,
  stepProgressEvent,
  stepFinishedEvent,
  stepRetryingEvent,
  mapStartedEvent,
  branchTakenEvent,
  loopIterationEvent,
  loopExhaustedEvent,
  handoffEvent,
  tokensUsedEvent,
  cancelRequestedEvent,
  inputRequestedEvent,
  subflowStartedEvent,
  runWaitingEvent,
  runFinishedEvent,
]);
export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventInput = z.input<typeof runEventSchema>;
export type RunEventType = RunEvent["type"];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;

/** A stored event as the SSE route sends it: `id:` = seq, `data:` = this object as JSON. */
export const runEventEnvelopeSchema = z.object({
  runId: z.string(),
  /** Contiguous from 1 per run; a reconnecting viewer resumes after the last seq it saw. */
  seq: z.number().int().positive(),
  /** ISO-8601 time the event was stored. */
  at: z.string(),
  event: runEventSchema,
});
export type RunEventEnvelope = z.infer<typeof runEventEnvelopeSchema>;
