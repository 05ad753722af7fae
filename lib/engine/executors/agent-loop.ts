import type { ModelRef, ToolRef } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";
import type { ChatMessage, ChatResult, ModelToolCall, ModelToolSpec, ToolDescriptor } from "../ports";
import { effectKey } from "./common";
import { ModelRefusalError, StepError, StepLimitError } from "../errors";
import { addUsage, type StepEnv } from "./types";

/** Repairs allowed for invalid tool-call arguments before the step fails (L1). */
export const MAX_TOOL_REPAIRS = 2;

/** Longest text kept per message / tool result in a step's recorded detail (the model still gets all of it). */
export const DETAIL_TEXT_MAX = 8_000;

const clip = (text: string): string =>
  text.length <= DETAIL_TEXT_MAX
    ? text
    : `${text.slice(0, DETAIL_TEXT_MAX)}… [${text.length - DETAIL_TEXT_MAX} more characters]`;

/** The messages as the step inspector shows them: role, text (clipped), tool calls and ids. */
export function recordedMessages(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  return messages.map((m) => {
    if (m.role === "tool") return { role: m.role, name: m.name, toolCallId: m.toolCallId, content: clip(m.content) };
    if (m.role === "assistant" && m.toolCalls?.length)
      return {
        role: m.role,
        content: clip(m.content),
        toolCalls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.args })),
      };
    return { role: m.role, content: clip(m.content) };
  });
}

/** A tool offered to the model in an agent loop, with how to run it. Returns the text fed back. */
export interface ToolBinding {
  spec: ModelToolSpec;
  invoke(args: Record<string, unknown>, callKey: string): Promise<string>;
}

export interface AgentLoopParams {
  model: ModelRef | null;
  messages: ChatMessage[];
  tools: ToolBinding[];
  maxTurns: number;
  /** Who is talking, for progress events ("agent", "worker docs"). */
  label: string;
  /** Accumulates the usage of every call (the step's total). */
  usage: TokenUsage;
  /**
   * Record each model turn in the step memo under this scope and replay recorded ones (agents that
   * may create tools: their step continues after an approval, and a crash must not repeat a paid
   * turn whose tools already ran). `tools` may grow during the loop (a created tool joins it).
   */
  durableTurns?: string;
}

export interface AgentLoopResult {
  content: string;
  messages: ChatMessage[];
  turns: number;
}

/**
 * The tool-calling loop of one visit: chat, run the requested tools, feed their results back, until
 * the model answers without tool calls or `maxTurns` model calls were made (→ StepLimitError
 * maxTurnsPerVisit, R6). Every call's usage is reported at once (shared token budget).
 * Recorded as step_progress (the step inspector's detail; content only in `detail`, which a share
 * link without content drops): the rendered prompt, each tool call with its arguments and result,
 * each invalid call and its repair request (L1). A refusal fails the step (ModelRefusalError).
 */
export async function runAgentLoop(ctx: StepEnv, p: AgentLoopParams): Promise<AgentLoopResult> {
  const messages = [...p.messages];
  const say = (message: string, detail?: Record<string, unknown>) =>
    ctx.emit({
      type: "step_progress",
      nodeId: ctx.node.id,
      iteration: ctx.iteration,
      message,
      ...(detail ? { detail } : {}),
    });
  say(
    `${p.label}: prompt rendered (${messages.length} messages${p.tools.length ? `, tools: ${p.tools.map((t) => t.spec.name).join(", ")}` : ""})`,
    {
      messages: recordedMessages(messages),
    },
  );
  let repairs = 0;
  for (let turn = 1; turn <= p.maxTurns; turn++) {
    const byName = new Map(p.tools.map((t) => [t.spec.name, t]));
    const res = await modelTurn(ctx, p, messages, turn);
    if (res.refusal) throw new ModelRefusalError(res.refusal);
    const invalid = res.invalidToolCalls ?? [];
    if (res.toolCalls.length === 0 && invalid.length === 0) {
      if (res.finishReason === "length" && res.content.trim() === "")
        throw new StepError("the model's answer was truncated (finish_reason length)", "invalid_output");
      messages.push({ role: "assistant", content: res.content });
      return { content: res.content, messages, turns: turn };
    }
    const attempted = [...res.toolCalls, ...invalid.map((i) => ({ id: i.id, name: i.name, args: {} }))];
    messages.push({ role: "assistant", content: res.content, toolCalls: attempted });
    for (const [i, call] of res.toolCalls.entries()) {
      const content = await runToolCall(ctx, byName, call, `${turn}.${i + 1}`, p.label);
      messages.push({ role: "tool", toolCallId: call.id, name: call.name, content });
      if (byName.has(call.name))
        say(`${call.name} returned ${content.length} characters`, {
          tool: call.name,
          callId: call.id,
          result: clip(content),
        });
    }
    if (invalid.length > 0 && ++repairs > MAX_TOOL_REPAIRS) {
      const last = invalid[0]!;
      throw new StepError(
        `tool call "${last.name}" still invalid after ${MAX_TOOL_REPAIRS} repairs (${last.reason}: ${last.message})`,
        "invalid_output",
      );
    }
    for (const bad of invalid) {
      say(
        `${p.label} made an invalid call to ${bad.name || "(no name)"} (${bad.reason}); repaired invalid tool call: asked the model to call it again (repair ${repairs} of ${MAX_TOOL_REPAIRS})`,
        {
          tool: bad.name,
          reason: bad.reason,
          error: bad.message,
          repair: repairs,
        },
      );
      messages.push({
        role: "tool",
        toolCallId: bad.id,
        name: bad.name,
        content: `Error: the call was not run: ${bad.reason}: ${bad.message}. Call the tool again with valid JSON arguments matching its schema.`,
      });
    }
  }
  throw new StepLimitError(
    "maxTurnsPerVisit",
    `${p.label} used all ${p.maxTurns} turns (maxTurnsPerVisit) without a final answer`,
  );
}

/**
 * One model call of the loop: replayed from the step memo when this turn was recorded (no call, no
 * live text, its usage already reported), else made (and recorded when the loop's turns are durable).
 */
async function modelTurn(ctx: StepEnv, p: AgentLoopParams, messages: ChatMessage[], turn: number): Promise<ChatResult> {
  const key =
    p.durableTurns !== undefined ? effectKey(ctx, ...(p.durableTurns ? [p.durableTurns] : []), `turn${turn}`) : null;
  const recorded = key ? ((await ctx.memo.get(key)) as ChatResult | undefined) : undefined;
  if (recorded) {
    addUsage(p.usage, recorded.usage);
    return recorded;
  }
  const live = ctx.live.call();
  const res = await ctx.model.chat({
    model: p.model,
    messages,
    ...(p.tools.length ? { tools: p.tools.map((t) => t.spec) } : {}),
    signal: ctx.signal,
    onDelta: live.onDelta,
    onToolStart: live.onToolStart,
  });
  live.done(res.content);
  addUsage(p.usage, res.usage);
  ctx.reportUsage(res.model, res.usage, res.latencyMs);
  if (key) await ctx.memo.put(key, ctx.runId, res);
  return res;
}

async function runToolCall(
  ctx: StepEnv,
  tools: Map<string, ToolBinding>,
  call: ModelToolCall,
  callKey: string,
  label: string,
): Promise<string> {
  const tool = tools.get(call.name);
  if (!tool) {
    ctx.emit({
      type: "step_progress",
      nodeId: ctx.node.id,
      iteration: ctx.iteration,
      message: `${label} asked for unknown tool "${call.name}"`,
    });
    return `Error: there is no tool named "${call.name}". Available: ${[...tools.keys()].join(", ") || "none"}.`;
  }
  ctx.emit({
    type: "step_progress",
    nodeId: ctx.node.id,
    iteration: ctx.iteration,
    message: `${label} called ${call.name}`,
    detail: { tool: call.name, callId: call.id, args: call.args },
  });
  return tool.invoke(call.args, callKey);
}

/**
 * Makes model-facing bindings for an agent's registry tools; a missing/unapproved tool fails the step.
 * A side-effecting call's idempotency key ends with `scope` (when given) and the call's turn and
 * index, so the calls of two loops in one step (an orchestrator's workers) never share a key.
 */
export async function registryTools(ctx: StepEnv, refs: ToolRef[], scope?: string): Promise<ToolBinding[]> {
  const bindings: ToolBinding[] = [];
  for (const ref of refs) {
    const d = await ctx.tools.resolve(ref);
    if (!d) throw new StepError(`tool "${ref.name}" does not exist or is not approved to run`);
    bindings.push(bindTool(ctx, ref, d, scope));
  }
  return bindings;
}

/** The binding of one resolved tool (side-effecting calls keyed as registryTools says). */
export function bindTool(ctx: StepEnv, ref: ToolRef, d: ToolDescriptor, scope?: string): ToolBinding {
  return {
    spec: { name: d.name, description: d.description, parameters: d.parameters },
    invoke: async (args, callKey) => {
      const key = d.sideEffect ? effectKey(ctx, ...(scope ? [scope] : []), callKey) : undefined;
      const r = await ctx.tools.call({
        ref,
        args,
        runId: ctx.runId,
        nodeId: ctx.node.id,
        signal: ctx.signal,
        ...(key ? { idempotencyKey: key } : {}),
      });
      return r.ok ? toText(r.output) : `Error: ${r.error}`;
    },
  };
}

/** Tool output as text for the model. */
export function toText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}
