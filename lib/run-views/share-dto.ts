import type { RunEvent, RunEventEnvelope } from "@/lib/engine/events";
import type { Workflow } from "@/lib/workflow/schema";
import { runInfoView, stepView, type RunInfoView, type RunRowLike, type StepRowLike, type StepView } from "./dto";

/**
 * The read-only view a share link returns (W2). Every object here is built FIELD BY FIELD from an
 * allowlist — never by spreading a row or a document — so a column or document field added later
 * cannot leak. Never included: owner ids, step/link/version/workflow ids, provider ids or keys,
 * agent instructions, node tasks/prompts/templates, rendered system prompts, tool args or code,
 * variables. Content (run inputs/outputs, step outputs, feedback, rendered user/assistant/tool
 * messages, tool-call arguments and results, branch reasons, handoff texts, step errors, the run's
 * reason, activity messages) only when the link was created with includeContent: an error or an
 * abort reason can quote the run's data (a tool's error naming its input, a templated reason), so
 * without content they are replaced by words that say only what happened (hiddenReason, HIDDEN_ERROR).
 */

/** What a step's error reads as on a link without content. */
export const HIDDEN_ERROR = "Error details are not shared by this link.";

/** A run's or cancel's reason on a link without content: its status in words, and the limit hit (a name, never data). */
export function hiddenReason(status: string, limit?: string | null): string {
  const words = status.replace(/_/g, " ");
  return `Run ${words}${limit ? ` (limit: ${limit})` : ""}; details are not shared by this link.`;
}

/** One node of the shared graph: enough to draw it, nothing it would run with. */
export interface SharedNode {
  id: string;
  type: Workflow["nodes"][number]["type"];
  name: string;
  position: { x: number; y: number } | null;
  /** How it starts with several incoming edges (drawn as its join badge). */
  join: "all" | "any";
  agent: string | null;
  tool: string | null;
  branches: { id: string; label: string }[];
  /** An end node's output names (never their templates); [] for other kinds. */
  outputs: string[];
  /** Its error policy takes its `error` outcome (so the canvas draws that handle); the rest of the policy is not shared. */
  errorBranch: boolean;
}

export interface SharedEdge {
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
  kind: "forward" | "loop";
  maxIterations: number | null;
  label: string | null;
}

export interface SharedGraph {
  name: string;
  nodes: SharedNode[];
  edges: SharedEdge[];
  agents: { key: string; name: string; model: string | null }[];
  /** The workflow's default model name (an agent without its own model runs on it). */
  defaultModel: string | null;
}

/** A shared step: never its input; `output` only with content. */
export type SharedStep = Omit<StepView, "input">;

/** The shared run header, with its step count. */
export type SharedRunInfo = RunInfoView & { stepCount: number };

/** GET /api/share/[token]: exactly these keys (asserted in the W2 test). */
export interface SharedRun {
  run: SharedRunInfo;
  graph: SharedGraph;
  steps: SharedStep[];
  includeContent: boolean;
  expiresAt: string;
}

/** The drawable part of a workflow document. */
export function sharedGraph(doc: Workflow): SharedGraph {
  return {
    name: doc.name,
    nodes: doc.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      name: n.name,
      position: n.position ? { x: n.position.x, y: n.position.y } : null,
      join: n.join,
      agent:
        n.type === "agent" || n.type === "orchestrator"
          ? n.agent
          : n.type === "map" && n.body.type === "agent"
            ? n.body.agent
            : null,
      tool: n.type === "tool" ? n.tool.name : n.type === "map" && n.body.type === "tool" ? n.body.tool.name : null,
      branches:
        n.type === "agent" || n.type === "router" || n.type === "human"
          ? n.branches.map((b) => ({ id: b.id, label: b.label }))
          : [],
      outputs: n.type === "end" ? Object.keys(n.outputs) : [],
      errorBranch: n.onError?.onExhausted === "error_branch",
    })),
    edges: doc.edges.map((e) => ({
      id: e.id,
      source: e.source,
      sourceHandle: e.sourceHandle,
      target: e.target,
      kind: e.kind,
      maxIterations: e.maxIterations ?? null,
      label: e.label ?? null,
    })),
    agents: doc.agents.map((a) => ({ key: a.key, name: a.name, model: a.model?.model ?? null })),
    defaultModel: doc.defaultModel?.model ?? null,
  };
}

/** One shared step; `output` and the error's text only with content. */
export function sharedStep(s: StepRowLike & { output: unknown }, includeContent: boolean): SharedStep {
  const step: SharedStep = stepView(s);
  if (includeContent) step.output = sharedOutput(s.output);
  else if (step.error !== null) step.error = HIDDEN_ERROR;
  return step;
}

/** A step's output for a share viewer: a waiting subflow's names its workflow but not the owner's run and workflow ids. */
function sharedOutput(output: unknown): unknown {
  const request = (output as { request?: { kind?: unknown; workflowName?: unknown; timeoutMs?: unknown } } | null)
    ?.request;
  if (request?.kind !== "subflow") return output ?? null;
  return {
    request: {
      kind: "subflow",
      runId: "",
      workflowId: "",
      workflowName: request.workflowName,
      ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    },
  };
}

/** The shared run; `inputs`/`outputs` and the reason's text only with content. */
export function sharedRunInfo(
  r: RunRowLike & { stepCount: number; inputs: unknown; outputs: unknown },
  includeContent: boolean,
): SharedRunInfo {
  const run: SharedRunInfo = { ...runInfoView(r), stepCount: r.stepCount };
  if (includeContent) {
    run.inputs = r.inputs ?? {};
    run.outputs = r.outputs ?? null;
  } else if (run.reason !== null) run.reason = hiddenReason(run.status);
  return run;
}

/**
 * A run event as a share viewer sees it (rebuilt field by field; content only when allowed), or null
 * for an event that is all content (a step's activity on a link without content: its messages can
 * name what a model asked for).
 */
export function sharedEvent(e: RunEvent, includeContent: boolean): RunEvent | null {
  const c = includeContent;
  switch (e.type) {
    case "run_started":
      return {
        type: e.type,
        inputs: c ? e.inputs : {},
        resumed: e.resumed,
        redispatched: e.redispatched.map((r) => ({ nodeId: r.nodeId, iteration: r.iteration, attempt: r.attempt })),
      };
    case "step_started":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        attempt: e.attempt,
        kind: e.kind,
        ...(e.retry !== undefined ? { retry: e.retry } : {}),
        ...(e.reused ? { reused: { runId: "", edited: e.reused.edited } } : {}),
        ...(c && e.feedback !== undefined ? { feedback: e.feedback } : {}),
      };
    case "step_progress":
      return c
        ? {
            type: e.type,
            nodeId: e.nodeId,
            iteration: e.iteration,
            message: e.message,
            ...(e.detail ? { detail: sharedDetail(e.detail) } : {}),
          }
        : null;
    case "step_finished":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        status: e.status,
        branch: e.branch,
        error: e.error === undefined ? undefined : c ? e.error : HIDDEN_ERROR,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs,
        ...(c ? { output: e.output } : {}),
        ...(e.errorClass ? { errorClass: e.errorClass } : {}),
        ...(e.recovered ? { recovered: e.recovered } : {}),
        ...(e.attempt !== undefined ? { attempt: e.attempt } : {}),
      };
    case "map_started":
      // how many items, not what they are (the items are the run's data)
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        stepId: e.stepId,
        total: e.total,
        concurrency: e.concurrency,
      };
    case "step_retrying":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        attempt: e.attempt,
        error: e.error,
        errorClass: e.errorClass,
        retry: e.retry,
        maxRetries: e.maxRetries,
        delayMs: e.delayMs,
        retryAt: e.retryAt,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs,
      };
    case "branch_taken":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        branch: e.branch,
        targets: [...e.targets],
        skipped: [...e.skipped],
      };
    case "loop_iteration":
      return {
        type: e.type,
        edgeId: e.edgeId,
        source: e.source,
        target: e.target,
        iteration: e.iteration,
        maxIterations: e.maxIterations,
      };
    case "loop_exhausted":
      return {
        type: e.type,
        edgeId: e.edgeId,
        source: e.source,
        target: e.target,
        maxIterations: e.maxIterations,
        action: e.action,
        continueWith: e.continueWith,
      };
    case "handoff":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        worker: e.worker,
        phase: e.phase,
        ...(e.error === undefined ? {} : { error: c ? e.error : HIDDEN_ERROR }),
        ...(c ? { task: e.task, result: e.result } : {}),
      };
    case "tokens_used":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        model: e.model,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs,
        runPromptTokens: e.runPromptTokens,
        runCompletionTokens: e.runCompletionTokens,
      };
    case "cancel_requested":
      return { type: e.type, ...(e.reason === undefined ? {} : { reason: c ? e.reason : hiddenReason("cancelled") }) };
    case "input_requested":
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        prompt: c ? e.prompt : "",
        choices: e.choices.map((x) => ({ id: x.id, label: x.label })),
        fields: e.fields.map((f) => ({ key: f.key, type: f.type, description: f.description, required: f.required })),
        ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
        ...(e.timeoutChoice !== undefined ? { timeoutChoice: e.timeoutChoice } : {}),
        ...(c && e.tool ? { tool: e.tool } : {}),
      };
    case "subflow_started":
      // the child run is the owner's: a share link shows which workflow runs, not the run's id
      return {
        type: e.type,
        nodeId: e.nodeId,
        iteration: e.iteration,
        runId: "",
        workflowId: "",
        workflowName: e.workflowName,
        ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
      };
    case "run_waiting":
      return { type: e.type, steps: e.steps.map((x) => ({ nodeId: x.nodeId, iteration: x.iteration })) };
    case "run_finished":
      return {
        type: e.type,
        status: e.status,
        reason: c ? e.reason : hiddenReason(e.status, e.limit),
        limit: e.limit,
        ...(c ? { outputs: e.outputs } : {}),
      };
  }
}

/** Keys of a step_progress detail a share link with content may show (what the executors record). */
const DETAIL_KEYS = ["args", "result", "error", "tool", "callId", "reason", "repair", "branch"] as const;

/**
 * A step_progress detail rebuilt from DETAIL_KEYS (plus `messages`, each rebuilt field by field,
 * system messages left out: they are the agent's rendered instructions), so a key added to the
 * detail later is not shared until it is listed here.
 */
export function sharedDetail(detail: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of DETAIL_KEYS) if (detail[key] !== undefined) out[key] = detail[key];
  if (Array.isArray(detail.messages))
    out.messages = detail.messages.filter((m) => !isSystemMessage(m)).map(sharedMessage);
  return out;
}

const isSystemMessage = (m: unknown): boolean =>
  typeof m !== "object" || m === null || (m as { role?: unknown }).role === "system";

function sharedMessage(raw: unknown): Record<string, unknown> {
  const m = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {
    role: String(m.role ?? ""),
    content: typeof m.content === "string" ? m.content : "",
  };
  if (typeof m.name === "string") out.name = m.name;
  if (typeof m.toolCallId === "string") out.toolCallId = m.toolCallId;
  if (Array.isArray(m.toolCalls)) {
    out.toolCalls = m.toolCalls.map((c: unknown) => {
      const call = (c && typeof c === "object" ? c : {}) as Record<string, unknown>;
      return { id: String(call.id ?? ""), name: String(call.name ?? ""), args: call.args ?? {} };
    });
  }
  return out;
}

/** The share stream's transform: the envelope rebuilt with the shared event, or null to send nothing. */
export function sharedEnvelope(env: RunEventEnvelope, includeContent: boolean): RunEventEnvelope | null {
  const event = sharedEvent(env.event, includeContent);
  return event && { runId: env.runId, seq: env.seq, at: env.at, event };
}
