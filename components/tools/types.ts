/** One recorded test of a code tool version (input → expected, with the result it had). */
export interface ToolTestView {
  input: Record<string, unknown>;
  expected: unknown;
  passed?: boolean;
  actual?: unknown;
  error?: string;
}

/** One version of a code tool (or an MCP server's config) as the tools page shows it. */
export interface ToolVersionView {
  id: string;
  version: number;
  code: string;
  codeHash: string;
  /** The owner approved exactly this hash. */
  approved: boolean;
  /** The stored code still hashes to codeHash (false = changed in the database: it will not run). */
  hashOk: boolean;
  createdAt: string;
  tests: ToolTestView[];
}

/** An MCP server's connection, as settings shows it (no secrets: header values are not sent). */
export type McpConfigView =
  | { transport: "stdio"; command: string; args: string[] }
  | { transport: "http"; url: string; headerNames: string[]; credential?: string };

/** A row of the registry: a built-in, a created (code) tool, or an external MCP server with its tools. */
export interface ToolView {
  key: string;
  id?: string;
  name: string;
  kind: "builtin" | "code" | "mcp";
  description: string;
  sideEffect?: boolean;
  /** Newest first. */
  versions: ToolVersionView[];
  /** The version that runs (newest approved), if any. */
  runningVersion?: number;
  /** Code tools: existing tools this one looks like (lexical similarity ≥ the near-duplicate threshold). */
  similar?: { name: string; score: number }[];
  /** MCP servers: their connection and, when approved and reachable, their tools. */
  mcp?: { config: McpConfigView | null; tools?: { name: string; description: string }[]; error?: string };
}

/** Result of a tools page action. */
export type ToolActionResult =
  { ok: true; message: string } | { ok: false; message: string; fieldErrors?: Record<string, string | undefined> };

/** A test re-run answer. */
export type RerunResult = { ok: true; results: ToolTestView[] } | { ok: false; message: string };

export interface ToolActions {
  approve: (versionId: string, codeHash: string) => Promise<ToolActionResult>;
  revoke: (versionId: string) => Promise<ToolActionResult>;
  remove: (toolId: string) => Promise<ToolActionResult>;
  rerunTests: (versionId: string) => Promise<RerunResult>;
}

export interface McpActions {
  save: (prev: ToolActionResult | null, form: FormData) => Promise<ToolActionResult | null>;
  remove: (toolId: string) => Promise<ToolActionResult>;
}

/** Lines of the "Create tool" stream (NDJSON from POST /tools/create). */
export type CreateStreamEvent =
  | { type: "started"; request: string; model?: string; offline?: boolean }
  | { type: "round"; round: number; maxRounds: number }
  | {
      type: "draft";
      round: number;
      draft: {
        name: string;
        description: string;
        code: string;
        argsSchema: Record<string, unknown>;
        tests: { input: Record<string, unknown>; expected: unknown }[];
      };
    }
  | { type: "tests"; round: number; results: ToolTestView[] }
  | { type: "reused"; toolId: string; name: string; score: number }
  | {
      type: "ready";
      name: string;
      versionId: string;
      version: number;
      codeHash: string;
      code: string;
      rounds: number;
      results: ToolTestView[];
      nearDuplicates: { name: string; score: number }[];
    }
  | { type: "failed"; rounds: number; error: string; results: ToolTestView[] }
  | { type: "error"; message: string };
