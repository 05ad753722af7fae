import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { startScriptedServer } from "@/lib/llm/scripted/server";
import { CORPUS_CONTEXT, baseWorkflow, corpus, scriptedFixture, type CorpusEntry } from "@/lib/designer/fixtures/corpus";
import { llmDesignerModel } from "@/lib/designer/llm";
import type { DesignerModel, StructuredRequest } from "@/lib/designer/model";
import { design } from "@/lib/designer/pipeline";
import { requestText } from "@/lib/designer/replay";
import { matchStructure, structureOf } from "@/lib/designer/structure";
import type { Workflow } from "@/lib/workflow/schema";
import { ONE_SHOT_MARKER, oneShot } from "./one-shot";

/**
 * B4 (benchmarks.md): natural language → graph cost, this designer vs a one-shot generator, same
 * recorded model (the scripted server over real HTTP, answering each corpus request's transcript),
 * tokens counted identically for both arms with gpt-tokenizer (o200k_base, offline ranks): the
 * whole request (system, messages, JSON schema) and the answer text. Deterministic: the full run
 * repeats each arm 5 times interleaved and checks the figures agree.
 */

type Row = { id: string; calls: number; promptTokens: number; completionTokens: number; valid: boolean; match: boolean | null };
type Arm = "designer" | "oneShot";

const RESULT = path.join(import.meta.dirname, "..", "results", "designer-b4.json");
const tokens = (text: string) => encode(text).length;

/** Replaces provider-reported usage by a local, identical count for both arms. */
function tokenCounted(model: DesignerModel): DesignerModel {
  return {
    async structured(request: StructuredRequest) {
      const result = await model.structured(request);
      return { ...result, usage: { promptTokens: tokens(requestText(request)), completionTokens: tokens(result.raw) } };
    },
  };
}

const matches = (entry: CorpusEntry, wf: Workflow | undefined) => (entry.golden ? !!wf && matchStructure(entry.golden, structureOf(wf)).match : null);

async function runDesigner(entry: CorpusEntry, model: DesignerModel): Promise<Row> {
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  let last;
  for await (const event of design(request, { model, context: CORPUS_CONTEXT })) last = event;
  if (last?.type === "done") {
    const { calls, promptTokens, completionTokens } = last.result.usage;
    return { id: entry.id, calls, promptTokens, completionTokens, valid: true, match: matches(entry, last.result.workflow) };
  }
  const usage = last?.type === "failed" ? last.usage : { calls: 0, promptTokens: 0, completionTokens: 0 };
  return { id: entry.id, ...usage, valid: false, match: entry.golden ? false : null };
}

async function runOneShot(entry: CorpusEntry, model: DesignerModel): Promise<Row> {
  const request = { message: entry.request, ...(entry.base ? { workflow: baseWorkflow(entry.base) } : {}) };
  const r = await oneShot(request, model, CORPUS_CONTEXT);
  return { id: entry.id, ...r.usage, valid: r.valid, match: r.valid ? matches(entry, r.workflow) : entry.golden ? false : null };
}

function summarise(rows: Row[]) {
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

async function runArms(entries: readonly CorpusEntry[], reps: number): Promise<Record<Arm, Row[][]>> {
  const server = await startScriptedServer({
    fixtures: [scriptedFixture(entries, "designer"), scriptedFixture(entries, "one-shot", ONE_SHOT_MARKER)],
  });
  try {
    const model = tokenCounted(llmDesignerModel({ baseURL: server.url, apiKey: "scripted", model: "scripted-demo", timeoutMs: 10_000 }));
    const out: Record<Arm, Row[][]> = { designer: [], oneShot: [] };
    for (let rep = 0; rep < reps; rep++) {
      for (const arm of ["designer", "oneShot"] as const) {
        server.reset();
        const rows: Row[] = [];
        for (const e of entries) rows.push(arm === "designer" ? await runDesigner(e, model) : await runOneShot(e, model));
        out[arm].push(rows);
      }
    }
    return out;
  } finally {
    await server.close();
  }
}

const SMOKE_IDS = ["n01-article", "n06-four-solvers-badjson", "n08-support-dup-branch", "n10-scored-missing-cap", "n22-router-never-fixed", "e01-fact-checker", "e04-shipping-route-dangling", "e10-second-traceback-dup-branch"];

/** `npm run bench -- designer [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const entries = smoke ? corpus.filter((e) => SMOKE_IDS.includes(e.id)) : corpus;
  const reps = smoke ? 1 : 5;
  const raw = await runArms(entries, reps);
  const deterministic = (["designer", "oneShot"] as const).every((a) => raw[a].every((r) => JSON.stringify(r) === JSON.stringify(raw[a][0])));
  const designer = summarise(raw.designer[0]!);
  const peer = summarise(raw.oneShot[0]!);
  const ratio = (k: keyof typeof designer) => designer[k] / peer[k];
  const goals = {
    validAtLeast97: designer.validShare >= 0.97,
    callsAtMost1_3: designer.callsPerRequest <= 1.3,
    matchAtLeastPeer: designer.goldenMatchShare >= peer.goldenMatchShare,
    tokensAtMostPeer: designer.totalTokensPerRequest <= peer.totalTokensPerRequest,
  };
  const line = `designer ${designer.callsPerRequest.toFixed(2)} calls/req, ${Math.round(designer.totalTokensPerRequest)} tok/req, ${(designer.validShare * 100).toFixed(1)}% valid, ${(designer.goldenMatchShare * 100).toFixed(1)}% golden | one-shot ${peer.callsPerRequest.toFixed(2)} calls/req, ${Math.round(peer.totalTokensPerRequest)} tok/req, ${(peer.validShare * 100).toFixed(1)}% valid, ${(peer.goldenMatchShare * 100).toFixed(1)}% golden`;
  if (smoke) {
    const stored = fs.existsSync(RESULT) ? (JSON.parse(fs.readFileSync(RESULT, "utf8")) as { smoke?: ReturnType<typeof summarise> }).smoke : undefined;
    const regressed = !!stored && (designer.callsPerRequest >= 2 * stored.callsPerRequest || designer.totalTokensPerRequest >= 2 * stored.totalTokensPerRequest || designer.validShare * 2 <= stored.validShare);
    return { summary: line, ok: deterministic && !regressed };
  }
  const smokeFigures = summarise(raw.designer[0]!.filter((r) => SMOKE_IDS.includes(r.id)));
  fs.mkdirSync(path.dirname(RESULT), { recursive: true });
  fs.writeFileSync(RESULT, `${JSON.stringify({
    benchmark: "B4 natural language -> graph cost (designer vs one-shot generator)",
    versions: { node: process.version, tokenizer: "gpt-tokenizer 4.0.0 o200k_base", model: "scripted model server over HTTP (lib/llm structured, tool method)" },
    machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, platform: os.platform() },
    repetitions: reps,
    deterministic,
    designer,
    oneShot: peer,
    ratios: { calls: ratio("callsPerRequest"), promptTokens: ratio("promptTokensPerRequest"), completionTokens: ratio("completionTokensPerRequest"), totalTokens: ratio("totalTokensPerRequest"), valid: ratio("validShare"), goldenMatch: ratio("goldenMatchShare") },
    goals,
    smoke: smokeFigures,
    perRequest: raw.designer[0]!.map((d, i) => ({ id: d.id, designer: d, oneShot: raw.oneShot[0]![i] })),
  }, null, 2)}\n`);
  return { summary: line, ok: deterministic && Object.values(goals).every(Boolean) };
}
