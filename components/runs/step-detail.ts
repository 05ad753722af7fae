import type { StepState } from "./run-fold";

/** One chat message as the engine recorded it in a step ("prompt rendered" progress detail). */
export interface RecordedMessage {
  role: string;
  content: string;
  name?: string;
  toolCallId?: string;
  toolCalls?: { id: string; name: string; args: unknown }[];
}

/** A tool call of the step with its arguments and, once it returned, its result. */
export interface RecordedToolCall {
  at: string;
  tool: string;
  callId: string | null;
  args: unknown;
  result?: string;
}

/** What the inspector shows beyond the step row, read from the step's progress events. */
export interface StepDetail {
  /** The rendered prompt (system instructions + task, with loop feedback) the agent started with. */
  prompt: RecordedMessage[] | null;
  toolCalls: RecordedToolCall[];
  /** Invalid tool calls the agent loop asked the model to repair (L1). */
  repairs: { at: string; message: string }[];
  /** Why the branch was chosen (the model's stated reason), when it gave one. */
  branchReason: string | null;
}

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function message(raw: unknown): RecordedMessage | null {
  const m = obj(raw);
  if (!m || typeof m.role !== "string") return null;
  const calls = Array.isArray(m.toolCalls) ? m.toolCalls.map(obj).filter((c) => c !== null) : [];
  return {
    role: m.role,
    content: str(m.content) ?? "",
    ...(str(m.name) ? { name: str(m.name)! } : {}),
    ...(str(m.toolCallId) ? { toolCallId: str(m.toolCallId)! } : {}),
    ...(calls.length
      ? { toolCalls: calls.map((c) => ({ id: str(c.id) ?? "", name: str(c.name) ?? "", args: c.args })) }
      : {}),
  };
}

/**
 * Folds a step's progress events into prompt, tool calls (arguments paired with results by call
 * id) , repairs and the branch reason. Tolerates details it does not know (older runs, share views
 * without content: then everything but the repairs is empty).
 */
export function stepDetail(step: Pick<StepState, "progress">): StepDetail {
  const out: StepDetail = { prompt: null, toolCalls: [], repairs: [], branchReason: null };
  const byId = new Map<string, RecordedToolCall>();
  for (const p of step.progress) {
    const d = p.detail ?? {};
    if (Array.isArray(d.messages) && out.prompt === null) {
      out.prompt = d.messages.map(message).filter((m) => m !== null);
    } else if ("args" in d) {
      const call: RecordedToolCall = {
        at: p.at,
        tool: str(d.tool) ?? p.message.replace(/^.* called /, ""),
        callId: str(d.callId),
        args: d.args,
      };
      out.toolCalls.push(call);
      if (call.callId) byId.set(call.callId, call);
    } else if ("result" in d) {
      const call = byId.get(str(d.callId) ?? "");
      if (call) call.result = str(d.result) ?? JSON.stringify(d.result);
    } else if ("branch" in d && "reason" in d) {
      out.branchReason = str(d.reason);
    }
    if (/repaired invalid tool call/.test(p.message)) out.repairs.push({ at: p.at, message: p.message });
  }
  return out;
}
