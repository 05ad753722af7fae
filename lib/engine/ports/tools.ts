import type { ToolRef } from "@/lib/workflow/schema";

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
  /** Null when the tool does not exist or is not approved to run. */
  resolve(ref: ToolRef): Promise<ToolDescriptor | null>;
  call(request: ToolCallRequest): Promise<ToolCallResult>;
}
