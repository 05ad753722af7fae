import "server-only";
import { systemClock } from "@/lib/engine/clock";
import type { EnginePorts, ModelPort, ToolsPort } from "@/lib/engine/ports";
import { redisEventsPort } from "@/lib/events/publish";
import type { Logger } from "@/lib/logger";
import { enqueueRun } from "@/lib/queue";
import { registryToolsPort } from "@/lib/tools/registry";
import { llmModelPort } from "./model-port";
import { ownerModelResolver } from "./model-resolver";
import { postgresStore } from "./store";
import { ledgerTools, retryingTools } from "./tools-port";

/** Overrides for the real ports (tests, or a tool registry once one is wired). */
export interface PortOverrides {
  /** Model port for a run's owner. Default: lib/llm with the owner's providers. */
  model?: (ownerId: string) => ModelPort;
  /** Tools before the idempotency ledger is applied. Default: the owner's tool registry (lib/tools). */
  tools?: (ownerId: string) => ToolsPort;
}

/**
 * The real engine ports for one run job of `ownerId`: PostgreSQL store, lib/llm models resolved
 * per owner (keys decrypted here, in the worker), tools behind the at-most-once ledger, the system
 * clock, BullMQ for resumes and Redis pub/sub wake-ups for live viewers.
 */
export function enginePorts(ownerId: string, logger: Logger, overrides: PortOverrides = {}): EnginePorts {
  return {
    store: postgresStore(),
    model: overrides.model?.(ownerId) ?? llmModelPort(ownerModelResolver(ownerId)),
    tools: ledgerTools(overrides.tools?.(ownerId) ?? retryingTools(registryToolsPort(ownerId))),
    clock: systemClock,
    logger,
    queue: { enqueueRun: async (runId, reason) => void (await enqueueRun(runId, reason)) },
    events: redisEventsPort,
  };
}
