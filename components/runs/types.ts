import type { Workflow } from "@/lib/workflow/schema";

/** USD per one million tokens, per model name (same shape as the settings' price table). */
export type Prices = Record<string, { promptPer1M: number; completionPer1M: number }>;

/** A step as the server renders it first (Step rows, ISO dates); live changes come from events. */
export interface InitialStep {
  nodeId: string;
  iteration: number;
  attempt: number;
  status: string;
  branch: string | null;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number | null;
  error: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** Owner view: what the step was started with (the edges that delivered data, loop feedback). */
  input?: unknown;
  output?: unknown;
}

/** The run header as the server renders it first. */
export interface InitialRun {
  id: string;
  status: string;
  reason: string | null;
  workflowName: string;
  version: number;
  promptTokens: number;
  completionTokens: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  inputs?: unknown;
  outputs?: unknown;
}

/** Everything one dashboard (owner or share) needs to render. */
export interface DashboardProps {
  mode: "owner" | "share";
  run: InitialRun;
  doc: Workflow | null;
  steps: InitialStep[];
  /** SSE URL (owner: /api/runs/[id]/events, share: /api/share/[token]/events). */
  eventsUrl: string;
  /** Share view: the JSON URL re-checked when the stream drops (404 = revoked/expired). */
  shareUrl?: string;
  /** Owner's price table; absent in the share view (no cost shown). */
  prices?: Prices;
  /** Share view: whether prompts/outputs are included. */
  includeContent?: boolean;
}
