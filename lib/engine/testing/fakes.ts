import type { ToolRef } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";
import type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelInvalidToolCall,
  ModelPort,
  ModelToolCall,
  StructuredRequest,
  StructuredResult,
  ToolCallRequest,
  ToolCallResult,
  ToolDescriptor,
  ToolsPort,
  EnginePorts,
  LivenessPort,
  Logger,
  WorkerSighting,
} from "../ports";
import { systemClock } from "../clock";
import { MemoryStore } from "@/lib/engine/memory-store";

/**
 * Test doubles for the model and tool ports: a scripted model that answers from a function of the
 * request (like the scripted HTTP server, but in-process), honours AbortSignal and records calls.
 */

/** A scripted reply. `error` rejects the call; `delayMs` waits first (abortable). */
export interface ScriptedReply {
  content?: string;
  toolCalls?: ModelToolCall[];
  invalidToolCalls?: ModelInvalidToolCall[];
  /** For structured calls: the parsed value (ok) or, with `invalid`, the raw text of a bad answer. */
  value?: unknown;
  invalid?: string;
  usage?: TokenUsage;
  delayMs?: number;
  /** Never answers until aborted. */
  hang?: boolean;
  error?: Error;
}

export interface RecordedCall {
  kind: "chat" | "structured";
  model: string | null;
  messages: ChatMessage[];
  tools: string[];
  signal: AbortSignal;
}

/** Text of the last user message of a call (what most scripts key on). */
export const lastUser = (messages: ChatMessage[]): string =>
  [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
/** Text of the system message. */
export const systemOf = (messages: ChatMessage[]): string => messages.find((m) => m.role === "system")?.content ?? "";

export class ScriptedModel implements ModelPort {
  readonly calls: RecordedCall[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(private readonly script: (call: RecordedCall) => ScriptedReply) {}

  async chat(req: ChatRequest): Promise<ChatResult> {
    const { reply, model, latencyMs } = await this.answer(
      "chat",
      req.model?.model ?? null,
      req.messages,
      req.tools?.map((t) => t.name) ?? [],
      req.signal,
    );
    const toolCalls = reply.toolCalls ?? [];
    const invalid = reply.invalidToolCalls ?? [];
    return {
      content: reply.content ?? "",
      toolCalls,
      ...(invalid.length ? { invalidToolCalls: invalid } : {}),
      usage: reply.usage ?? { promptTokens: 10, completionTokens: 5 },
      latencyMs,
      finishReason: toolCalls.length || invalid.length ? "tool_calls" : "stop",
      model,
    };
  }

  async structured<T>(req: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const { reply, model, latencyMs } = await this.answer(
      "structured",
      req.model?.model ?? null,
      req.messages,
      [],
      req.signal,
    );
    const usage = reply.usage ?? { promptTokens: 10, completionTokens: 5 };
    if (reply.invalid !== undefined)
      return { ok: false, error: "answer does not match the schema", raw: reply.invalid, usage, latencyMs, model };
    const parsed = req.schema.safeParse(reply.value);
    if (!parsed.success)
      return {
        ok: false,
        error: parsed.error.issues[0]?.message ?? "invalid",
        raw: JSON.stringify(reply.value),
        usage,
        latencyMs,
        model,
      };
    return { ok: true, value: parsed.data, usage, latencyMs, model };
  }

  private async answer(
    kind: RecordedCall["kind"],
    model: string | null,
    messages: ChatMessage[],
    tools: string[],
    signal: AbortSignal,
  ) {
    const call: RecordedCall = { kind, model, messages: structuredClone(messages), tools, signal };
    this.calls.push(call);
    const reply = this.script(call);
    const started = Date.now();
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (reply.hang) await systemClock.sleep(1e9, signal);
      else if (reply.delayMs) await systemClock.sleep(reply.delayMs, signal);
      if (signal.aborted) throw signal.reason;
    } finally {
      this.inFlight -= 1;
    }
    if (reply.error) throw reply.error;
    return { reply, model: model ?? "default-model", latencyMs: Date.now() - started };
  }
}

export interface FakeTool {
  descriptor: ToolDescriptor;
  run(args: Record<string, unknown>): unknown;
}

/** Tools by name; side effects are recorded once per idempotency key (the ToolEffect ledger contract). */
export class FakeTools implements ToolsPort {
  readonly calls: ToolCallRequest[] = [];
  readonly effects = new Map<string, unknown>();

  constructor(private readonly tools: Record<string, FakeTool>) {}

  /** Registers a tool from now on (an approval, a tool created during a run). */
  add(name: string, tool: FakeTool): void {
    this.tools[name] = tool;
  }

  async resolve(ref: ToolRef): Promise<ToolDescriptor | null> {
    return this.tools[ref.name]?.descriptor ?? null;
  }

  async call(req: ToolCallRequest): Promise<ToolCallResult> {
    this.calls.push(req);
    const tool = this.tools[req.ref.name];
    if (!tool) return { ok: false, error: `no tool ${req.ref.name}` };
    if (req.idempotencyKey && this.effects.has(req.idempotencyKey))
      return { ok: true, output: this.effects.get(req.idempotencyKey) };
    try {
      const output = tool.run(req.args);
      if (req.idempotencyKey) this.effects.set(req.idempotencyKey, output);
      return { ok: true, output };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}

/**
 * Worker liveness by lease owner, set by the test: `alive` owners beat on every look (a fresh
 * heartbeat each time), `stopped` ones shut down gracefully, any other owner is silent (dead once
 * `deadAfterMs` has passed since its interruption was seen).
 */
export class FakeLiveness implements LivenessPort {
  readonly alive = new Set<string>();
  readonly stopped = new Set<string>();
  looks = 0;
  private beat = Date.now();

  constructor(
    readonly deadAfterMs = 40,
    readonly pollMs = 10,
  ) {}

  async sight(owners: (string | null)[]): Promise<WorkerSighting[]> {
    this.looks += 1;
    return owners.map((o) => {
      if (o !== null && this.stopped.has(o)) return { beat: this.beat, stopped: true };
      if (o === null || !this.alive.has(o)) return { beat: null };
      this.beat = Math.max(this.beat + 1, Date.now());
      return { beat: this.beat };
    });
  }
}

/** A logger that drops everything (tests assert on events, not logs). */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};

/**
 * Ports over a MemoryStore, a ScriptedModel and FakeTools (and optionally worker liveness), with the
 * real clock; `enqueued` and `later` record the jobs the engine asked for (now, and delayed).
 */
export function fakePorts(parts: {
  store?: MemoryStore;
  model: ScriptedModel;
  tools?: FakeTools;
  liveness?: LivenessPort;
}): EnginePorts & {
  store: MemoryStore;
  enqueued: string[];
  published: number[];
  later: { runId: string; delayMs: number }[];
} {
  const enqueued: string[] = [];
  const published: number[] = [];
  const later: { runId: string; delayMs: number }[] = [];
  return {
    store: parts.store ?? new MemoryStore(),
    model: parts.model,
    tools: parts.tools ?? new FakeTools({}),
    clock: systemClock,
    logger: silentLogger,
    queue: {
      enqueueRun: async (runId) => void enqueued.push(runId),
      enqueueRunLater: async (runId, _reason, delayMs) => void later.push({ runId, delayMs }),
    },
    events: { published: (_runId, events) => void published.push(...events.map((e) => e.seq)) },
    ...(parts.liveness ? { liveness: parts.liveness } : {}),
    enqueued,
    published,
    later,
  };
}
