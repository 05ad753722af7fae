import "server-only";
import * as z from "zod";
import { listTools, saveCodeTool, type ToolVersionRow } from "@/lib/db/tools";
import type { ChatMessage } from "@/lib/llm/messages";
import type { ModelConfig } from "@/lib/llm/models";
import { structured } from "@/lib/llm/structured";
import { builtinTools } from "@/lib/tools/builtins";
import { runnableVersion } from "@/lib/tools/registry";
import { similarity } from "@/lib/similarity";
import { describeFailures, runToolTests, type ToolTestResult } from "./tests";

/** What the model writes (fixtures match on the structured name "write_tool"). */
export const toolDraftSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
  description: z.string().min(1).max(2000),
  argsSchema: z.record(z.string(), z.unknown()),
  code: z.string().min(1).max(100_000),
  tests: z
    .array(z.object({ input: z.record(z.string(), z.unknown()), expected: z.unknown() }))
    .min(1)
    .max(10),
  /** Hosts the code must reach with caps.http (a web API); absent or empty = pure computation. */
  allowedDomains: z.array(z.string().min(1).max(253)).max(10).optional(),
});
export type ToolDraft = z.infer<typeof toolDraftSchema>;

/** Similarity at or above which an existing approved tool is reused instead of writing one (default 0.5). */
export const REUSE_THRESHOLD = 0.5;
/** Similarity at or above which a new tool is flagged as a near-duplicate of an existing one. */
export const DUPLICATE_THRESHOLD = 0.35;

/** How a creation request ended. `ready` = stored as an UNAPPROVED version awaiting the owner's approval. */
export type CreateToolOutcome =
  | { status: "reused"; toolId: string; name: string; score: number }
  | {
      status: "ready";
      draft: ToolDraft;
      version: ToolVersionRow;
      results: ToolTestResult[];
      rounds: number;
      nearDuplicates: Array<{ name: string; score: number }>;
    }
  | { status: "failed"; draft: ToolDraft | null; results: ToolTestResult[]; rounds: number; error: string };

/**
 * Where the drafts of finished rounds are kept, so that a creation interrupted by a crash resumes
 * at its next round without asking the model again for the ones before (runs: the step memo).
 */
export interface RoundRecords {
  load(round: number): Promise<ToolDraft | undefined>;
  save(round: number, draft: ToolDraft): Promise<void>;
}

/** Progress of a creation request, in order (what the "Create tool" dialog streams). */
export type CreateToolProgress =
  | { type: "round"; round: number; maxRounds: number }
  | { type: "draft"; round: number; draft: ToolDraft }
  | { type: "tests"; round: number; results: ToolTestResult[] };

const SYSTEM = `You write small, pure JavaScript tools for an automation platform.
Return a tool as JSON: name (lower_snake_case), description (one sentence: what it does), argsSchema
(JSON Schema of the input object), code and tests. The code must define function run(input) returning
JSON; it runs in a sandbox without files, timers or modules. Only when it must call a web API, list
the hosts in allowedDomains: run(input, caps) then gets caps.http for them (tests run without it).
Write 2-5 tests {input, expected}.`;

async function existingTools(workspaceId: string) {
  const rows = await listTools(workspaceId);
  return rows.filter((t) => t.kind === "code" && !("reason" in runnableVersion(t, { name: t.name })));
}

/** The approved code tool most similar to a request, if any reaches `threshold`. */
export async function findReusableTool(workspaceId: string, request: string, threshold = REUSE_THRESHOLD) {
  let best: { toolId: string; name: string; score: number } | null = null;
  for (const t of await existingTools(workspaceId)) {
    const score = similarity(request, `${t.name.replace(/_/g, " ")} ${t.description}`);
    if (score >= threshold && (!best || score > best.score)) best = { toolId: t.id, name: t.name, score };
  }
  return best;
}

/**
 * The tool creation loop (Alita-style): reuse a similar approved tool if one exists; otherwise the
 * model writes spec + code + tests, the tests run in the sandbox, failures go back with the error or
 * the expected-vs-actual diff, at most `maxRounds` (3). A passing tool is saved UNAPPROVED (the owner
 * approves its exact hash with approveToolVersion); near-duplicates of existing tools are flagged.
 */
export async function createTool(p: {
  workspaceId: string;
  request: string;
  config: ModelConfig;
  maxRounds?: number;
  signal?: AbortSignal;
  onProgress?: (e: CreateToolProgress) => void;
  rounds?: RoundRecords;
  /** Each model call's usage, as it returns (a run counts it against its token budget). */
  onUsage?: (model: string, usage: { promptTokens: number; completionTokens: number }, latencyMs: number) => void;
}): Promise<CreateToolOutcome> {
  const progress = (e: CreateToolProgress) => p.onProgress?.(e);
  const reuse = await findReusableTool(p.workspaceId, p.request);
  if (reuse) return { status: "reused", ...reuse };
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: p.request },
  ];
  let draft: ToolDraft | null = null;
  let results: ToolTestResult[] = [];
  const maxRounds = p.maxRounds ?? 3;
  for (let round = 1; round <= maxRounds; round++) {
    progress({ type: "round", round, maxRounds });
    try {
      const recorded = await p.rounds?.load(round);
      if (recorded) draft = recorded;
      else {
        const written = await structured({
          config: p.config,
          messages,
          schema: toolDraftSchema,
          name: "write_tool",
          signal: p.signal,
        });
        p.onUsage?.(written.model, written.usage, written.latencyMs);
        draft = written.value;
        await p.rounds?.save(round, draft);
      }
    } catch (err) {
      return {
        status: "failed",
        draft,
        results,
        rounds: round,
        error: `the model did not return a tool: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
    if (builtinTools.has(draft.name)) draft = { ...draft, name: `${draft.name}_custom` };
    progress({ type: "draft", round, draft });
    results = await runToolTests(p.workspaceId, draft.code, draft.tests);
    progress({ type: "tests", round, results });
    if (results.every((r) => r.passed)) {
      const version = await saveCodeTool(p.workspaceId, {
        name: draft.name,
        description: draft.description,
        code: draft.code,
        argsSchema: draft.argsSchema,
        tests: results,
        ...(draft.allowedDomains?.length ? { config: { allowedDomains: draft.allowedDomains } } : {}),
      });
      const nearDuplicates = (await existingTools(p.workspaceId))
        .filter((t) => t.id !== version.toolId)
        .map((t) => ({
          name: t.name,
          score: similarity(`${draft!.name} ${draft!.description}`, `${t.name} ${t.description}`),
        }))
        .filter((d) => d.score >= DUPLICATE_THRESHOLD);
      return { status: "ready", draft, version, results, rounds: round, nearDuplicates };
    }
    messages.push(
      { role: "assistant", content: JSON.stringify(draft) },
      { role: "user", content: describeFailures(results) },
    );
  }
  return {
    status: "failed",
    draft,
    results,
    rounds: maxRounds,
    error: `tests still failing after ${maxRounds} rounds`,
  };
}
