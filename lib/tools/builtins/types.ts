import type { z } from "zod";
import type { NetPolicy } from "@/lib/net";

/** What a tool call may use: the caller's identity, cancellation, the network policy, providers. */
export interface ToolContext {
  workspaceId: string;
  signal: AbortSignal;
  /** Base policy for outbound HTTP (tests inject a fake resolver + a loopback override). */
  net: NetPolicy;
  /** SearXNG-compatible base URL for web_search (WEFT_SEARCH_URL); absent = web_search unavailable. */
  searchUrl?: string;
}

/** A built-in tool: trusted code in this repository, typed arguments, no approval needed. */
export interface BuiltinTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  args: S;
  /** Side-effecting calls go through the at-most-once ledger. */
  sideEffect: boolean;
  run(args: z.infer<S>, ctx: ToolContext): Promise<unknown>;
}

/** Keeps the argument type of a built-in while storing it in a heterogeneous list. */
export const defineBuiltin = <S extends z.ZodType>(tool: BuiltinTool<S>): BuiltinTool => tool as unknown as BuiltinTool;
