import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { startScriptedServer } from "@/lib/llm/scripted/server";
import { CORPUS_CONTEXT, baseWorkflow, scriptedFixture, type CorpusEntry } from "@/lib/designer/fixtures/corpus";
import { llmDesignerModel } from "@/lib/designer/llm";
import type { DesignerModel, StructuredRequest } from "@/lib/designer/model";
import { design } from "@/lib/designer/pipeline";
import { matchStructure, structureOf } from "@/lib/designer/structure";
import type { Workflow } from "@/lib/workflow/schema";
import { ONE_SHOT_MARKER, oneShot } from "./one-shot";

/**
 * B4b — the corpus: this designer vs a one-shot generator, same recorded model (the scripted server
 * over real HTTP, answering each corpus request's transcript, on the path the designer picks for it:
 * strict json_schema), tokens counted identically for both arms with gpt-tokenizer (o200k_base,
 * offline ranks): the whole request (system, messages, the JSON schema sent) and the answer text.
 */

export type Row = {
  id: string;
  calls: number;
  promptTokens: number;
  completionTokens: number;
  valid: boolean;
  match: boolean | null;
};
export type Arm = "designer" | "oneShot";

const tokens = (text: string) => encode(text).length;

/** The text a request puts on the wire: system, messages and the schema of the path it went on. */
function sentText(request: StructuredRequest, method: string | undefined): string {
  const schema = method === "json_schema" ? request.schema.strict : request.schema.loose;
  return [request.system, ...request.messages.map((m) => m.content), JSON.stringify(schema)].join("\n");
}

/** Replaces provider-reported usage by a local, identical count for both arms. */
function tokenCounted(model: DesignerModel): DesignerModel {
  return {
    async structured(request: StructuredRequest) {
      const result = await model.structured(request);
      return {
        ...result,
        usage: { promptTokens: tokens(sentText(request, result.method)), completionTokens: tokens(result.raw) },
      };
    },
  };
}

const matches = (entry: CorpusEntry, wf: Workflow | undefined) =>
  entry.golden ? !!wf && matchStructure(entry.golden, structureOf(wf)).match : null;

async function runDesigner(entry: CorpusEntry, model: DesignerModel): Promise<Row> {
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  let last;
  for await (const event of design(request, { model, context: CORPUS_CONTEXT })) last = event;
  if (last?.type === "done") {
    const { calls, promptTokens, completionTokens } = last.result.usage;
    return {
      id: entry.id,
      calls,
      promptTokens,
      completionTokens,
      valid: true,
      match: matches(entry, last.result.workflow),
    };
  }
  const usage = last?.type === "failed" ? last.usage : { calls: 0, promptTokens: 0, completionTokens: 0 };
  return { id: entry.id, ...usage, valid: false, match: entry.golden ? false : null };
}

async function runOneShot(entry: CorpusEntry, model: DesignerModel): Promise<Row> {
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  const r = await oneShot(request, model, CORPUS_CONTEXT);
  return {
    id: entry.id,
    ...r.usage,
    valid: r.valid,
    match: r.valid ? matches(entry, r.workflow) : entry.golden ? false : null,
  };
}

export function summarise(rows: Row[]) {
  const n = rows.length;
  const golden = rows.filter((r) => r.match !== null);
  const sum = (k: "calls" | "promptTokens" | "completionTokens") => rows.reduce((s, r) => s + r[k], 0);
  return {
    requests: n,
    callsPerRequest: sum("calls") / n,
    promptTokensPerRequest: sum("promptTokens") / n,
    completionTokensPerRequest: sum("completionTokens") / n,
    totalTokensPerRequest: (sum("promptTokens") + sum("completionTokens")) / n,
    validShare: rows.filter((r) => r.valid).length / n,
    goldenMatchShare: golden.filter((r) => r.match).length / golden.length,
  };
}

export async function runArms(entries: readonly CorpusEntry[], reps: number): Promise<Record<Arm, Row[][]>> {
  const server = await startScriptedServer({
    fixtures: [scriptedFixture(entries, "designer"), scriptedFixture(entries, "one-shot", ONE_SHOT_MARKER)],
  });
  try {
    const model = tokenCounted(
      llmDesignerModel({ baseURL: server.url, apiKey: "scripted", model: "scripted-demo", timeoutMs: 10_000 }),
    );
    const out: Record<Arm, Row[][]> = { designer: [], oneShot: [] };
    for (let rep = 0; rep < reps; rep++) {
      for (const arm of ["designer", "oneShot"] as const) {
        server.reset();
        const rows: Row[] = [];
        for (const e of entries)
          rows.push(arm === "designer" ? await runDesigner(e, model) : await runOneShot(e, model));
        out[arm].push(rows);
      }
    }
    return out;
  } finally {
    await server.close();
  }
}
