/**
 * B7 (docs/benchmarks.md): what a tool box is worth. Agents that lack a tool write it during the run
 * (create_tool, workflow toolCreation `auto`, so no person is in the loop); the same questions are
 * answered with the tool box empty (each question by a fresh owner: every tool written anew) and
 * filled from earlier runs (one owner answered one question per capability first; the measured
 * questions then reuse those tools). Measured per arm on the same questions: success (the run
 * succeeded and its answer carries the expected value), model calls (tokens_used events: the agent's
 * turns and the tool's writing), tokens, tools written and time per question.
 *
 * Runs through a real worker process, PostgreSQL, Redis and the sandbox. The model is the scripted
 * server unless OPENAI_BASE_URL (with OPENAI_API_KEY, OPENAI_MODEL) is set: then the same questions go
 * to that provider, and the figures are the provider's (`npm run bench -- toolbox` with those set).
 * `--smoke`: one capability, fails unless both arms succeed and the filled arm makes fewer calls.
 */
import os from "node:os";
import { dropTestDatabase } from "@/test/db";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { spawnWorker, stopWorker, waitTerminal } from "@/test/helpers/worker";
import { median, machine, writeResult } from "../stats";
import { benchEnvironment } from "../engine/support";
import { capabilities, scriptedRules, type Capability } from "./tasks";

const RESULT = "toolbox-b7.json";
const MARKER = "[[toolbox]]";

const workflow = (task: string) => ({
  name: "B7 question",
  toolCreation: "auto" as const,
  agents: [
    {
      key: "solver",
      name: "Solver",
      instructions: `${MARKER} You answer small computation questions exactly. Use a tool for every computation; when none of your tools computes what the question needs, call create_tool to get one, then call it. Answer with the value.`,
    },
  ],
  nodes: [
    { id: "start", type: "start" as const },
    { id: "solve", type: "agent" as const, agent: "solver", task },
    { id: "end", type: "end" as const, outputs: { answer: "{{nodes.solve.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "solve" },
    { id: "e2", source: "solve", sourceHandle: "done", target: "end" },
  ],
});

interface Outcome {
  capability: string;
  prompt: string;
  succeeded: boolean;
  calls: number;
  tokens: number;
  toolsWritten: number;
  reused: boolean;
  ms: number;
}

/** The expected value as a whole word of the answer (212 in "212 °F" or {"fahrenheit":212}, not in 2120). */
const carries = (answer: string, expected: string) =>
  new RegExp(`(^|[^0-9a-z-])${expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^0-9a-z-])`, "i").test(answer);

async function ask(workspaceId: string, c: Capability, t: Capability["tasks"][number]): Promise<Outcome> {
  const { startRun } = await import("@/lib/runs/service");
  const { workflowId } = await createTestWorkflow(workspaceId, workflow(t.prompt));
  const t0 = performance.now();
  const runId = (await startRun(workspaceId, workflowId, {})).run.id;
  const { run, events } = await waitTerminal(runId, 300_000);
  const ms = performance.now() - t0;
  const progress = events
    .filter((e) => e.type === "step_progress")
    .map((e) => String((e.payload as { message?: string }).message));
  const answer = JSON.stringify((run.outputs as { answer?: unknown } | null)?.answer ?? "");
  return {
    capability: c.key,
    prompt: t.prompt,
    succeeded: run.status === "succeeded" && carries(answer, t.expected),
    calls: events.filter((e) => e.type === "tokens_used").length,
    tokens: run.promptTokens + run.completionTokens,
    toolsWritten: progress.filter((m) => /^create_tool: wrote /.test(m)).length,
    reused: progress.some((m) => /^create_tool: reused /.test(m)),
    ms,
  };
}

function summarise(outcomes: Outcome[]) {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number) => Math.round((outcomes.reduce((s, o) => s + f(o), 0) / n) * 100) / 100;
  return {
    questions: n,
    successRate: Math.round((outcomes.filter((o) => o.succeeded).length / n) * 1000) / 1000,
    callsPerQuestion: mean((o) => o.calls),
    tokensPerQuestion: mean((o) => o.tokens),
    toolsWritten: outcomes.reduce((s, o) => s + o.toolsWritten, 0),
    reused: outcomes.filter((o) => o.reused).length,
    msPerQuestionP50: Math.round(median(outcomes.map((o) => o.ms))),
  };
}

export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const caps = smoke ? capabilities.slice(0, 1) : capabilities;
  const provider = process.env.OPENAI_BASE_URL
    ? {
        OPENAI_BASE_URL: process.env.OPENAI_BASE_URL,
        OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? "",
        ...(process.env.OPENAI_MODEL ? { OPENAI_MODEL: process.env.OPENAI_MODEL } : {}),
      }
    : null;
  const { database, prefix } = await benchEnvironment();
  const { startScriptedServer } = await import("@/lib/llm/scripted/server");
  const { closeApiRedis, closeRunsQueue } = await import("@/lib/queue");
  const { disconnectDb } = await import("@/lib/db/client");
  const model = provider ? null : await startScriptedServer({ fixtures: [{ rules: scriptedRules(MARKER) }] });
  const worker = spawnWorker({
    databaseUrl: database.url,
    prefix,
    ...(model ? { modelPort: model.port } : {}),
    ...(provider ? { env: provider } : {}),
  });
  try {
    await worker.ready;
    // empty: every measured question by a fresh owner, whose tool box is empty
    const empty: Outcome[] = [];
    for (const c of caps) for (const t of c.tasks.slice(1)) empty.push(await ask((await createTestUser()).id, c, t));
    // filled: one owner answers the first question of each capability (the earlier runs), then the measured ones
    const owner = (await createTestUser()).id;
    for (const c of caps) await ask(owner, c, c.tasks[0]!);
    const filled: Outcome[] = [];
    for (const c of caps) for (const t of c.tasks.slice(1)) filled.push(await ask(owner, c, t));
    const arms = { empty: summarise(empty), filled: summarise(filled) };
    const result = {
      at: new Date().toISOString(),
      machine: await machine(),
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      model: provider ? `${provider.OPENAI_BASE_URL} ${provider.OPENAI_MODEL ?? "(default)"}` : "scripted",
      capabilities: caps.map((c) => c.key),
      arms,
      questions: { empty, filled },
    };
    const summary = `empty box: ${arms.empty.successRate * 100}% succeeded, ${arms.empty.callsPerQuestion} calls, ${arms.empty.tokensPerQuestion} tokens, ${arms.empty.toolsWritten} tools written; filled: ${arms.filled.successRate * 100}%, ${arms.filled.callsPerQuestion} calls, ${arms.filled.tokensPerQuestion} tokens, ${arms.filled.toolsWritten} written, ${arms.filled.reused} reused (${arms.empty.questions} questions each, ${result.model})`;
    const ok =
      arms.filled.successRate >= arms.empty.successRate && arms.filled.callsPerQuestion < arms.empty.callsPerQuestion;
    if (!smoke) await writeResult(RESULT, result);
    return { summary, ok: provider ? true : ok && arms.empty.successRate === 1 };
  } finally {
    await stopWorker(worker);
    await model?.close();
    await closeRunsQueue();
    await closeApiRedis();
    await disconnectDb();
    await dropTestDatabase(database.name);
  }
}
