import type { ModelRef, ToolRef } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";

/** Tools port: the tool registry, sandbox and side-effect ledger live behind it. */

/** A resolved tool: what the model sees plus whether calls have side effects. */
export interface ToolDescriptor {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  sideEffect: boolean;
}

export interface ToolCallRequest {
  ref: ToolRef;
  args: Record<string, unknown>;
  /**
   * Set for side-effecting calls: `${runId}:${nodeId}:${iteration}[:r<retry>][:h<handoff>.<worker>][:<turn>.<index>]`
   * (executors/common.ts effectKey). The implementation must perform the effect at most once per key
   * (ToolEffect ledger) and return the recorded result on repeat.
   */
  idempotencyKey?: string;
  runId: string;
  nodeId: string;
  signal: AbortSignal;
}

/** ok=false = the tool ran (or refused the args) and failed; the executor turns it into a step error. */
export type ToolCallResult = { ok: true; output: unknown } | { ok: false; error: string };

export interface ToolsPort {
  /** Writes a missing tool during a run (agents allowed to create tools). */
  creator?: ToolCreationPort;
  /** Null when the tool does not exist or is not approved to run. */
  resolve(ref: ToolRef): Promise<ToolDescriptor | null>;
  call(request: ToolCallRequest): Promise<ToolCallResult>;
}

/** How a tool written during a run is approved: the owner reviews it (`ask`), or pure-computation tools are approved at once (`auto`). */
export type ToolApprovalPolicy = "ask" | "auto";

/** An agent's `create_tool` call: what it lacks, in its own words. */
export interface ToolCreationRequest {
  request: string;
  /** The call's idempotency key (effectKey): finished rounds and the outcome are recorded under it. */
  key: string;
  runId: string;
  nodeId: string;
  /** The model of the agent that asks (null: the owner's default): it writes the tool. */
  model: ModelRef | null;
  policy: ToolApprovalPolicy;
  signal: AbortSignal;
  /** One line per round, shown in the step's progress. */
  onProgress?(message: string): void;
  /** Each model call of the creation, as it returns: the run's tokens and budget count it. */
  onUsage?(model: string, usage: TokenUsage, latencyMs: number): void;
}

/** One recorded test of a created tool. */
export interface CreatedToolTest {
  input: Record<string, unknown>;
  expected: unknown;
  passed: boolean;
  actual?: unknown;
  error?: string;
}

/** A created tool waiting for its owner's approval of this exact code. */
export interface PendingTool {
  name: string;
  description: string;
  toolId: string;
  versionId: string;
  version: number;
  codeHash: string;
  code: string;
  argsSchema: Record<string, unknown>;
  tests: CreatedToolTest[];
  /** Hosts the code may reach (empty: pure computation). */
  allowedDomains: string[];
  /** Existing tools it resembles (similarity ≥ the near-duplicate threshold). */
  nearDuplicates: Array<{ name: string; score: number }>;
}

/** How a creation request ended. `ref` names the runnable version (reused or approved). */
export type ToolCreation =
  | { status: "reused"; ref: ToolRef; similarity: number; rounds: 0 }
  | { status: "approved"; ref: ToolRef; tool: PendingTool; rounds: number }
  | { status: "pending"; tool: PendingTool; rounds: number }
  | { status: "failed"; error: string; rounds: number };

/** Writes tools during a run (Alita-style creation loop); absent where the engine runs without a registry. */
export interface ToolCreationPort {
  create(request: ToolCreationRequest): Promise<ToolCreation>;
}
