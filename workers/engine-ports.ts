import "server-only";
import { systemClock } from "@/lib/engine/clock";
import type { EnginePorts, LiveTextPort, MemoPort, ModelPort, StorePort, ToolsPort } from "@/lib/engine/ports";
import { redisEventsPort } from "@/lib/events/publish";
import { redisLiveTextPort } from "@/lib/events/live-text-writer";
import type { Logger } from "@/lib/logger";
import { enqueueRun, enqueueRunLater } from "@/lib/queue";
import { registryToolsPort } from "@/lib/tools/registry";
import { llmModelPort } from "@/lib/providers/model-port";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { postgresStore } from "@/lib/run-store/postgres-store";
import { subflowsPort } from "@/lib/runs/subflows";
import { ledgerMemo, ledgerTools, retryingTools } from "@/lib/tools/ledger";
import { runToolCreator } from "@/lib/tools/create/in-run";
import { otelTracePort } from "@/lib/telemetry/engine-trace";
import { tracingOn } from "@/lib/telemetry/tracing";
import { meteredStore } from "./metrics";

/** Overrides for the real ports (tests, or a tool registry once one is wired). */
export interface PortOverrides {
  /** Model port for a run's owner. Default: lib/llm with the owner's providers. */
  model?: (workspaceId: string) => ModelPort;
  /** Tools before the idempotency ledger is applied. Default: the owner's tool registry (lib/tools). */
  tools?: (workspaceId: string) => ToolsPort;
  /** Wraps the PostgreSQL store (B1's diagnostics price other statements under the real engine). */
  store?: (store: StorePort) => StorePort;
  /** Step memo. Default: the ToolEffect table (lib/tools ledgerMemo). */
  memo?: MemoPort;
  /** Live text port. Default: the ephemeral Redis channel (B2b's naive arm writes each token to the event log instead). */
  live?: LiveTextPort;
}

/**
 * The real engine ports for one run job: PostgreSQL store, lib/llm models resolved per owner (keys
 * decrypted here, in the worker), tools behind the at-most-once ledger, the system clock, BullMQ for
 * resumes (at the priority of the job being run: an experiment's run stays behind interactive ones), Redis pub/sub wake-ups for live viewers and child runs for subflow nodes. `owner` is the run's owner, or null for the
 * owner the claim reads from the Run row (the worker: no look-up of its own before the claim). The
 * owner-scoped ports (model, tools) are built at their first call, which comes after the claim.
 */
export function enginePorts(
  owner: string | null,
  logger: Logger,
  overrides: PortOverrides = {},
  job: { priority?: number } = {},
): EnginePorts {
  let workspaceId = owner;
  const whose = (): string => {
    if (workspaceId === null) throw new Error("a model or tool was called before the run was claimed");
    return workspaceId;
  };
  const model = once(() => overrides.model?.(whose()) ?? llmModelPort(ownerModelResolver(whose())));
  const tools = once(() => ledgerTools(overrides.tools?.(whose()) ?? retryingTools(registryToolsPort(whose()))));
  const memo = overrides.memo ?? ledgerMemo;
  const creator = once(() => runToolCreator(whose(), memo, (ref) => ownerModelResolver(whose())(ref)));
  const store = meteredStore(postgresStore(owner === null ? { onClaim: (id) => (workspaceId = id) } : {}));
  return {
    store: overrides.store?.(store) ?? store,
    model: {
      chat: async (request) => model().chat(request),
      structured: async (request) => model().structured(request),
    },
    tools: {
      resolve: async (ref) => tools().resolve(ref),
      call: async (request) => tools().call(request),
      creator: { create: async (request) => creator().create(request) },
    },
    memo,
    ...(tracingOn() ? { trace: otelTracePort } : {}),
    clock: systemClock,
    logger,
    queue: {
      enqueueRun: async (runId, reason) => void (await enqueueRun(runId, reason, { priority: job.priority })),
      enqueueRunLater: async (runId, reason, delayMs) =>
        void (await enqueueRunLater(runId, reason, delayMs, { priority: job.priority })),
    },
    events: redisEventsPort,
    live: overrides.live ?? redisLiveTextPort,
    subflows: subflowsPort(whose),
  };
}

/** `make` called once, at the first call of the answer. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
