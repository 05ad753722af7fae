/**
 * The engine's ports: everything the driver and executors need from the world, injected.
 * The engine core never imports db/queue/redis/llm; workers/engine-ports.ts wires real ports and
 * the unit tests use in-memory fakes (lib/engine/testing/).
 */
export type { Logger } from "@/lib/logger";
export type { TerminalRunStatus } from "../events";
export * from "./store";
export * from "./model";
export * from "./tools";
export * from "./runtime";
export * from "./liveness";
export * from "./subflows";
export * from "./live-text";
export * from "./memo";
export * from "./trace";
