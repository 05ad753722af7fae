/**
 * The designer evaluation from the command line: the corpus requests through the designer on one
 * provider, a line per request and the totals; the report is written as JSON and, with --user,
 * stored for that user (Settings → Designer evaluation shows it).
 *
 *   npm run designer-eval -- --base-url https://api.openai.com/v1 --model gpt-4o-mini --api-key-env OPENAI_API_KEY
 *   npm run designer-eval -- --base-url http://localhost:11434/v1 --model qwen2.5:7b      (Ollama)
 *   npm run designer-eval -- --scripted [personality]       (the scripted model, in process)
 *
 * Options: --path auto|json_schema|tool|json_object|text (default auto), --requests id,id (default
 * all), --out FILE (default designer-evaluation-<time>.json), --user EMAIL (store the report for that
 * user; needs DATABASE_URL). Without --base-url or --scripted: OPENAI_BASE_URL / OPENAI_API_KEY /
 * OPENAI_MODEL from the environment.
 */
import fs from "node:fs";
import nodePath from "node:path";
import { parseArgs } from "node:util";
import { findUserByEmail } from "@/lib/db/users";
import { disconnectDb } from "@/lib/db/client";
import { evaluateDesigner, evaluationEntries, summariseEvaluation, type EvaluationRow } from "@/lib/designer/evaluate";
import { startEvaluation } from "@/lib/designer/evaluation-run";
import { corpus, scriptedFixture } from "@/lib/designer/fixtures/corpus";
import { llmDesignerModel } from "@/lib/designer/llm";
import { STRUCTURED_PATHS, type StructuredPath } from "@/lib/llm/json-call";
import { defaultModelConfig, modelLabel, type ModelConfig } from "@/lib/llm/models";
import { PERSONALITIES } from "@/lib/llm/scripted/personality";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "base-url": { type: "string" },
    model: { type: "string" },
    "api-key-env": { type: "string" },
    scripted: { type: "boolean" },
    path: { type: "string", default: "auto" },
    requests: { type: "string" },
    out: { type: "string" },
    user: { type: "string" },
    help: { type: "boolean" },
  },
});

function fail(message: string): never {
  process.stderr.write(`${message}\nSee the comment at the top of scripts/designer-eval.ts for the options.\n`);
  process.exit(2);
}

async function endpoint(): Promise<{ config: ModelConfig; server?: ScriptedServer }> {
  if (values.scripted) {
    const personality = positionals[0] ?? "plain";
    if (!(personality in PERSONALITIES))
      fail(`Unknown personality "${personality}" (have: ${Object.keys(PERSONALITIES).join(", ")}).`);
    const server = await startScriptedServer({ fixtures: [scriptedFixture(corpus, "designer")] });
    return {
      config: {
        baseURL: server.url.replace(/\/v1$/, `/p/${personality}/v1`),
        apiKey: "scripted",
        model: "scripted-demo",
        timeoutMs: 30_000,
      },
      server,
    };
  }
  if (values["base-url"]) {
    if (!values.model) fail("--base-url needs --model.");
    const key = values["api-key-env"] ? process.env[values["api-key-env"]] : undefined;
    if (values["api-key-env"] && !key) fail(`The environment variable ${values["api-key-env"]} is not set.`);
    return {
      config: { baseURL: values["base-url"], model: values.model, ...(key ? { apiKey: key } : {}), timeoutMs: 120_000 },
    };
  }
  if (!process.env.OPENAI_BASE_URL && !process.env.OPENAI_API_KEY) fail("Give --base-url and --model, or --scripted.");
  const config = defaultModelConfig();
  return { config: values.model ? { ...config, model: values.model } : config };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const line = (r: EvaluationRow) =>
  `${r.valid ? "valid  " : "INVALID"} ${r.match ? "match   " : "no match"} ${String(r.calls).padStart(2)} calls ${String(r.promptTokens + r.completionTokens).padStart(6)} tok ${String(r.ms).padStart(6)} ms  ${r.id}${r.error ? `  (${r.error})` : r.issues.length ? `  (${r.issues.join(", ")})` : ""}`;

async function main(): Promise<void> {
  if (values.help) fail("Designer evaluation.");
  const path = values.path as StructuredPath | "auto";
  if (path !== "auto" && !STRUCTURED_PATHS.includes(path))
    fail(`--path must be auto or one of ${STRUCTURED_PATHS.join(", ")}.`);
  const ids = values.requests
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const entries = evaluationEntries(ids);
  if (entries.length === 0) fail("No corpus request has those ids.");
  const { config, server } = await endpoint();
  process.stdout.write(
    `Evaluating the designer on ${modelLabel(config)} at ${config.baseURL} (${entries.length} requests, path ${path})\n`,
  );
  const rows: EvaluationRow[] = [];
  try {
    if (values.user) {
      const user = await findUserByEmail(values.user);
      if (!user) fail(`No user with the email ${values.user}.`);
      const { evaluation, done } = await startEvaluation(
        user.id,
        { config, label: `Command · ${modelLabel(config)}`, providerId: null, path },
        {
          ids,
          source: "command",
          onRow: (r) => (rows.push(r), process.stdout.write(`${line(r)}\n`)),
        },
      );
      await done;
      process.stdout.write(`Stored as evaluation ${evaluation.id} for ${values.user}.\n`);
    } else {
      for await (const r of evaluateDesigner(llmDesignerModel(config, { path }), entries)) {
        rows.push(r);
        process.stdout.write(`${line(r)}\n`);
      }
    }
  } finally {
    await server?.close();
    await disconnectDb();
  }
  const s = summariseEvaluation(rows);
  process.stdout.write(
    `valid ${pct(s.validShare)}, golden match ${pct(s.goldenMatchShare)}, ${s.callsPerRequest.toFixed(2)} calls/request, ` +
      `${Math.round(s.promptTokensPerRequest + s.completionTokensPerRequest)} tokens/request, ${Math.round(s.msPerRequest)} ms/request (p95 ${s.msP95} ms), paths ${JSON.stringify(s.paths)}\n`,
  );
  const out = values.out ?? `designer-evaluation-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  fs.mkdirSync(nodePath.dirname(nodePath.resolve(out)), { recursive: true });
  fs.writeFileSync(
    out,
    `${JSON.stringify({ endpoint: { baseURL: config.baseURL, model: config.model }, path, summary: s, rows }, null, 2)}\n`,
  );
  process.stdout.write(`Report written to ${out}\n`);
}

await main();
