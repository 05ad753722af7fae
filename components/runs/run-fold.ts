import { applyLiveFrame, liveStepField, type LiveFrame, type LiveStepText } from "@/lib/events/live-frame";
import { parseMapItemsId } from "@/lib/workflow/map";
import { nowWriting } from "@/components/terms/words";
import type { MapProgress, NodeRunState } from "@/components/editor/flow-mapping";
import type { InputRequest, RunEvent, RunEventEnvelope, RunStatus, SubflowRequest } from "@/lib/engine/events";
import type { ModelUsage } from "@/lib/run-views/cost";
import type { RunInfoView, StepView } from "@/lib/run-views/dto";

/** One model call inside a step (a tokens_used event). */
export interface ModelCall extends ModelUsage {
  at: string;
  latencyMs: number | null;
}

/** One try of a step: its first, an error-policy retry, or a re-dispatch after a crash. */
export interface AttemptView {
  attempt: number;
  /** Error-policy retries before this try (0 = the first try). */
  retry: number;
  startedAt: string;
  finishedAt: string | null;
  /** running, or how it ended: failed (and retried), succeeded, timed_out, cancelled. */
  status: string;
  error: string | null;
  errorClass: string | null;
}

/** One step (node × iteration) as the dashboard shows it. */
export interface StepState {
  key: string;
  nodeId: string;
  iteration: number;
  attempt: number;
  kind: string | null;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  branch: string | null;
  targets: string[];
  skipped: string[];
  output: unknown;
  error: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  input: unknown;
  feedback: unknown;
  progress: { at: string; message: string; detail?: Record<string, unknown> }[];
  calls: ModelCall[];
  handoffs: { at: string; worker: string; phase: string; task?: string; result?: string; error?: string }[];
  /** A human review's question (while it waits, and after, for the record). */
  request?: InputRequestView;
  /** A subflow's child run (while the step waits for its end, and after, for the record). */
  subflow?: SubflowRunView;
  /** Its tries in order (from the event stream). */
  attempts: AttemptView[];
  /** A retry's or fork's step answered with the source run's result (`edited`: the fork's edit). */
  reused: { runId: string; edited: boolean } | null;
  /** Why its last try failed (error policies' class), and how its policy recovered, if it did. */
  errorClass: string | null;
  recovered: string | null;
  /** Status `retrying`: when its next try is due. */
  retryAt: string | null;
}

/** What a human review asks (the input_requested event; the waiting Step row's output.request). */
export type InputRequestView = InputRequest;

/**
 * The run a subflow step started (the subflow_started event; the waiting Step row's output.request).
 * A share view gets `runId` "" (the child run is the owner's alone).
 */
export type SubflowRunView = Omit<SubflowRequest, "kind">;

/** The child run a waiting subflow Step row holds in its output (set by the engine), if it is one. */
function subflowOf(output: unknown): SubflowRunView | undefined {
  const r = output && typeof output === "object" ? (output as { request?: unknown }).request : undefined;
  if (!r || typeof r !== "object") return undefined;
  const q = r as Partial<SubflowRequest>;
  if (q.kind !== "subflow" || typeof q.runId !== "string" || typeof q.workflowName !== "string") return undefined;
  return {
    runId: q.runId,
    workflowId: typeof q.workflowId === "string" ? q.workflowId : "",
    workflowName: q.workflowName,
    ...(typeof q.timeoutMs === "number" ? { timeoutMs: q.timeoutMs } : {}),
  };
}

/** The question a waiting Step row holds in its output (set by the engine), if it is one. */
function requestOf(output: unknown): InputRequestView | undefined {
  const r = output && typeof output === "object" ? (output as { request?: unknown }).request : undefined;
  if (!r || typeof r !== "object") return undefined;
  const q = r as Partial<InputRequestView>;
  if (typeof q.prompt !== "string" || !Array.isArray(q.choices)) return undefined;
  return {
    prompt: q.prompt,
    choices: q.choices,
    fields: Array.isArray(q.fields) ? q.fields : [],
    ...timeoutOf(q),
    ...(q.tool && typeof q.tool === "object" ? { tool: q.tool } : {}),
  };
}

function timeoutOf(q: {
  timeoutMs?: unknown;
  timeoutChoice?: unknown;
}): Pick<InputRequestView, "timeoutMs" | "timeoutChoice"> {
  return {
    ...(typeof q.timeoutMs === "number" ? { timeoutMs: q.timeoutMs } : {}),
    ...(typeof q.timeoutChoice === "string" ? { timeoutChoice: q.timeoutChoice } : {}),
  };
}

/** The folded run: mutable, owned by one hook; `version` bumps on every applied event. */
export interface RunState {
  version: number;
  lastSeq: number;
  status: string;
  reason: string | null;
  inputs: unknown;
  outputs: unknown;
  startedAt: string | null;
  finishedAt: string | null;
  promptTokens: number;
  completionTokens: number;
  steps: Map<string, StepState>;
  loops: { at: string; text: string }[];
  events: RunEventEnvelope[];
  /** Per map visit (its item steps' node id, lib/workflow/map.ts): how many items it has (map_started). */
  mapTotals: Map<string, number>;
  /** The live text of running steps (ephemeral `event: live` frames, lib/events/live-frame.ts), by node#iteration#attempt. */
  live: Map<string, LiveStepText>;
}

export const stepKey = (nodeId: string, iteration: number): string => `${nodeId}#${iteration}`;

function blankStep(nodeId: string, iteration: number): StepState {
  return {
    key: stepKey(nodeId, iteration),
    nodeId,
    iteration,
    attempt: 1,
    kind: null,
    status: "pending",
    startedAt: null,
    finishedAt: null,
    branch: null,
    targets: [],
    skipped: [],
    output: undefined,
    error: null,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: null,
    input: undefined,
    feedback: undefined,
    progress: [],
    calls: [],
    handoffs: [],
    attempts: [],
    reused: null,
    errorClass: null,
    recovered: null,
    retryAt: null,
  };
}

/** A waiting Step row's output is what it waits for, not an output: a review's question or a subflow's child run. */
function waitingFields(output: unknown): Pick<StepState, "output" | "request" | "subflow"> {
  const subflow = subflowOf(output);
  return subflow ? { output: undefined, subflow } : { output: undefined, request: requestOf(output) };
}

/** The state before the first event, seeded with what the server rendered (Step rows). */
export function initialRunState(run: RunInfoView, steps: readonly StepView[]): RunState {
  const map = new Map<string, StepState>();
  for (const s of steps) {
    map.set(stepKey(s.nodeId, s.iteration), {
      ...blankStep(s.nodeId, s.iteration),
      attempt: s.attempt,
      status: s.status,
      branch: s.branch,
      promptTokens: s.promptTokens,
      completionTokens: s.completionTokens,
      latencyMs: s.latencyMs,
      error: s.error,
      startedAt: s.startedAt,
      finishedAt: s.finishedAt,
      input: s.input,
      ...(s.status === "waiting" ? waitingFields(s.output) : { output: s.output }),
    });
  }
  return {
    version: 0,
    lastSeq: 0,
    status: run.status,
    reason: run.reason,
    inputs: run.inputs,
    outputs: run.outputs,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    steps: map,
    loops: [],
    events: [],
    mapTotals: new Map(),
    live: new Map(),
  };
}

function step(state: RunState, nodeId: string, iteration: number): StepState {
  const key = stepKey(nodeId, iteration);
  let s = state.steps.get(key);
  if (!s) {
    s = blankStep(nodeId, iteration);
    state.steps.set(key, s);
  }
  return s;
}

/**
 * Applies one envelope; an already-seen seq (replay after a reconnect) is ignored, so the fold is
 * idempotent over duplicates. Returns whether anything changed.
 */
export function applyEnvelope(state: RunState, env: RunEventEnvelope): boolean {
  if (env.seq <= state.lastSeq) return false;
  state.lastSeq = env.seq;
  state.version++;
  state.events.push(env);
  reduce(state, env.event, env.at);
  return true;
}

function reduce(state: RunState, e: RunEvent, at: string): void {
  switch (e.type) {
    case "run_started":
      state.status = "running";
      state.startedAt ??= at;
      if (state.inputs === undefined || Object.keys(e.inputs).length > 0) state.inputs = e.inputs;
      return;
    case "step_started": {
      const s = step(state, e.nodeId, e.iteration);
      // a step's first try starts its bar; a retry's try keeps the bar's start
      Object.assign(s, {
        attempt: e.attempt,
        kind: e.kind,
        status: "running",
        startedAt: s.attempts.length > 0 ? (s.startedAt ?? at) : at,
        finishedAt: null,
        error: null,
        retryAt: null,
      });
      s.attempts.push({
        attempt: e.attempt,
        retry: e.retry ?? 0,
        startedAt: at,
        finishedAt: null,
        status: "running",
        error: null,
        errorClass: null,
      });
      if (e.reused) s.reused = { runId: e.reused.runId, edited: e.reused.edited };
      if (e.feedback !== undefined) s.feedback = e.feedback;
      return;
    }
    case "step_retrying": {
      const s = step(state, e.nodeId, e.iteration);
      Object.assign(s, { status: "retrying", error: e.error, errorClass: e.errorClass, retryAt: e.retryAt });
      endAttempt(s, e.attempt, "failed", at, e.error, e.errorClass);
      return;
    }
    case "step_progress":
      step(state, e.nodeId, e.iteration).progress.push({
        at,
        message: e.message,
        ...(e.detail ? { detail: e.detail } : {}),
      });
      return;
    case "step_finished": {
      const s = step(state, e.nodeId, e.iteration);
      Object.assign(s, {
        status: e.status,
        finishedAt: at,
        branch: e.branch ?? s.branch,
        error: e.error ?? null,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs ?? s.latencyMs,
      });
      if (e.output !== undefined) s.output = e.output;
      if (e.errorClass) s.errorClass = e.errorClass;
      if (e.recovered) s.recovered = e.recovered;
      endAttempt(s, s.attempt, e.status, at, e.error ?? null, e.errorClass ?? null);
      return;
    }
    case "branch_taken": {
      const s = step(state, e.nodeId, e.iteration);
      Object.assign(s, { branch: e.branch, targets: e.targets, skipped: e.skipped });
      for (const id of e.skipped)
        if (!state.steps.has(stepKey(id, 1))) Object.assign(step(state, id, 1), { status: "skipped", finishedAt: at });
      return;
    }
    case "loop_iteration":
      state.loops.push({ at, text: `${e.source} → ${e.target}: iteration ${e.iteration} of ≤ ${e.maxIterations}` });
      return;
    case "loop_exhausted":
      state.loops.push({
        at,
        text: `${e.source} → ${e.target}: cap ${e.maxIterations} reached, ${e.action}${e.continueWith ? ` via ${e.continueWith}` : ""}`,
      });
      return;
    case "handoff":
      step(state, e.nodeId, e.iteration).handoffs.push({
        at,
        worker: e.worker,
        phase: e.phase,
        task: e.task,
        result: e.result,
        error: e.error,
      });
      return;
    case "tokens_used":
      step(state, e.nodeId, e.iteration).calls.push({
        at,
        model: e.model,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs ?? null,
      });
      state.promptTokens = e.runPromptTokens;
      state.completionTokens = e.runCompletionTokens;
      return;
    case "cancel_requested":
      state.reason = e.reason ?? "Cancel requested";
      return;
    case "run_finished":
      Object.assign(state, { status: e.status, reason: e.reason, finishedAt: at });
      if (e.outputs !== undefined) state.outputs = e.outputs;
      return;
    case "input_requested":
      Object.assign(step(state, e.nodeId, e.iteration), {
        status: "waiting",
        request: {
          prompt: e.prompt,
          choices: e.choices,
          fields: e.fields,
          ...timeoutOf(e),
          ...(e.tool ? { tool: e.tool } : {}),
        },
      });
      return;
    case "subflow_started": {
      const subflow: SubflowRunView = {
        runId: e.runId,
        workflowId: e.workflowId,
        workflowName: e.workflowName,
        ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
      };
      Object.assign(step(state, e.nodeId, e.iteration), { status: "waiting", subflow });
      return;
    }
    case "run_waiting":
      state.status = "waiting";
      return;
    case "map_started":
      state.mapTotals.set(e.stepId, e.total);
      return;
  }
}

/** Ends the step's try `attempt` if it is still running (a step's last event ends its last try). */
function endAttempt(
  s: StepState,
  attempt: number,
  status: string,
  at: string,
  error: string | null,
  errorClass: string | null,
): void {
  const a = s.attempts.findLast((x) => x.attempt === attempt);
  if (a && a.status === "running") Object.assign(a, { status, finishedAt: at, error, errorClass });
}

const CANVAS_STATUSES: ReadonlySet<string> = new Set<NodeRunState["status"]>([
  "pending",
  "running",
  "waiting",
  "succeeded",
  "failed",
  "skipped",
  "timed_out",
  "cancelled",
]);
/** A step row's status on the canvas: between two tries (`retrying`) the step is still under way. */
const canvasStatus = (s: string): NodeRunState["status"] =>
  s === "retrying" ? "running" : CANVAS_STATUSES.has(s) ? (s as NodeRunState["status"]) : "pending";

/** Per node: the status of its latest iteration and that iteration's number (the canvas overlay). */
export function nodeOverlay(state: RunState, nodeIds: readonly string[]): Map<string, NodeRunState> {
  const out = new Map<string, NodeRunState>(nodeIds.map((id) => [id, { status: "pending", iteration: 1 }]));
  const items: StepState[] = [];
  for (const s of state.steps.values()) {
    // a map's item steps are no node of the graph: they make its progress (below)
    if (parseMapItemsId(s.nodeId)) {
      items.push(s);
      continue;
    }
    const prev = out.get(s.nodeId);
    if (prev && prev.status !== "pending" && prev.iteration > s.iteration) continue;
    const live = liveTextOf(state, s);
    out.set(s.nodeId, {
      status: canvasStatus(s.status),
      iteration: s.iteration,
      ...(live ? { writing: nowWriting(live) } : {}),
    });
  }
  for (const [mapId, progress] of mapProgress(state, items, out))
    out.set(mapId, { ...out.get(mapId)!, items: progress });
  return out;
}

/** Each map's items of its latest visit: the total (map_started, else the items seen) and how many ended which way. */
function mapProgress(
  state: RunState,
  items: readonly StepState[],
  overlay: ReadonlyMap<string, NodeRunState>,
): Map<string, MapProgress> {
  const out = new Map<string, MapProgress>();
  for (const s of items) {
    const parsed = parseMapItemsId(s.nodeId)!;
    const map = overlay.get(parsed.mapId);
    if (!map || map.iteration !== parsed.visit) continue;
    const p = out.get(parsed.mapId) ?? {
      total: state.mapTotals.get(s.nodeId) ?? 0,
      succeeded: 0,
      failed: 0,
      running: 0,
    };
    if (s.status === "succeeded") p.succeeded += 1;
    else if (s.status === "failed" || s.status === "timed_out") p.failed += 1;
    else if (s.status === "running" || s.status === "retrying") p.running += 1;
    p.total = Math.max(p.total, s.iteration);
    out.set(parsed.mapId, p);
  }
  for (const [stepId, total] of state.mapTotals) {
    const parsed = parseMapItemsId(stepId);
    if (parsed && !out.has(parsed.mapId) && overlay.get(parsed.mapId)?.iteration === parsed.visit)
      out.set(parsed.mapId, { total, succeeded: 0, failed: 0, running: 0 });
  }
  return out;
}

/** The item steps of the map visit a step belongs to (the map's own step, or one of its items), in item order; empty for other steps. */
export function mapItemSteps(state: RunState, step: StepState): StepState[] {
  const parsed = parseMapItemsId(step.nodeId);
  const stepId = parsed
    ? step.nodeId
    : [...state.mapTotals.keys()].find((id) => {
        const p = parseMapItemsId(id);
        return p?.mapId === step.nodeId && p.visit === step.iteration;
      });
  if (!stepId) return [];
  return [...state.steps.values()].filter((s) => s.nodeId === stepId).sort((a, b) => a.iteration - b.iteration);
}

/** A running step's live text (what its model has written so far), or null once its durable result is in (which replaces it). */
export function liveTextOf(
  state: Pick<RunState, "live">,
  step: Pick<StepState, "nodeId" | "iteration" | "attempt" | "status">,
): LiveStepText | null {
  if (step.status !== "running") return null;
  const live = state.live.get(liveStepField(step));
  return live && !live.done && (live.text || live.tool) ? live : null;
}

/** Folds one live text frame; true when it changed what a view shows. */
export function applyLive(state: RunState, frame: LiveFrame): boolean {
  if (!applyLiveFrame(state.live, frame)) return false;
  state.version++;
  return true;
}

/** Steps in start order (unstarted last), for the timeline and the inspector list. */
export function orderedSteps(state: RunState): StepState[] {
  return [...state.steps.values()].sort(
    (a, b) => (a.startedAt ?? "\uffff").localeCompare(b.startedAt ?? "\uffff") || a.iteration - b.iteration,
  );
}

/** Model usage summed over steps (for the run's estimated cost). */
export function runUsage(state: RunState): ModelUsage[] {
  const by = new Map<string, ModelUsage>();
  for (const s of state.steps.values()) {
    for (const c of s.calls) {
      const u = by.get(c.model) ?? { model: c.model, promptTokens: 0, completionTokens: 0 };
      u.promptTokens += c.promptTokens;
      u.completionTokens += c.completionTokens;
      by.set(c.model, u);
    }
  }
  return [...by.values()];
}

/** What a retry from the failed step would reuse (the steps that ended with a result) and run first (those that did not). */
export function retryPreview(
  steps: readonly StepState[],
  nodeName: (id: string) => string,
  version: number,
): { reusable: number; failed: string[]; version: number } {
  const reusable = steps.filter(
    (s) => s.status === "succeeded" || ((s.status === "failed" || s.status === "timed_out") && s.branch !== null),
  ).length;
  const failed = [
    ...new Set(
      steps
        .filter(
          (s) =>
            ["failed", "timed_out", "cancelled", "running", "retrying", "waiting"].includes(s.status) &&
            s.branch === null,
        )
        .map((s) => nodeName(s.nodeId)),
    ),
  ];
  return { reusable, failed, version };
}

/** True when the run can no longer change. */
export const isFinished = (status: string): boolean => !["queued", "running", "waiting"].includes(status as RunStatus);

/** The steps that started a subflow's child run (waiting for it or ended), in start order. */
export const subflowSteps = (state: RunState): (StepState & { subflow: SubflowRunView })[] =>
  orderedSteps(state).filter((s): s is StepState & { subflow: SubflowRunView } => s.subflow !== undefined);

/** The human reviews waiting for an answer, in start order. */
export const waitingReviews = (state: RunState): (StepState & { request: InputRequestView })[] =>
  orderedSteps(state).filter(
    (s): s is StepState & { request: InputRequestView } => s.status === "waiting" && s.request !== undefined,
  );
