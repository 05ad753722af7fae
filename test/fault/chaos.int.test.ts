import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFailed } from "vitest";
import { approveToolVersion, saveMcpServer } from "@/lib/db/tools";
import { db } from "@/lib/db/client";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import type { WorkflowInput } from "@/lib/workflow/schema";
import {
  alive,
  expectContiguousSeq,
  saveWorkerLogs,
  stepsNow,
  TERMINAL,
  waitFor,
  waitTerminal,
  workerOf,
  type WorkerProcess,
} from "@/test/helpers/worker";
import { useWorkerPool } from "@/test/helpers/worker-pool";

/**
 * D1 chaos (docs/reliability.md), reduced to fit CI: 20 concurrent runs × 11 steps (start, 8
 * agents, one side-effecting tool step, end) on five worker processes; a worker holding running
 * steps is SIGKILLed at a random moment 5 times (mid model call, mid tool call, between a commit
 * and the next step: wherever it happens to be) and a replacement is spawned each time (not
 * awaited). A worker is killed only while another started worker survives, so recovery never
 * waits for a start-up (30 s and more on a loaded machine); if every run finished before the 5th
 * kill (slow replacements), another wave of 20 runs starts.
 * Pass: every run succeeds — or fails only as a genuine crash loop (its step's worker died 3 times,
 * each a worker this test killed); each step has exactly one committed result (one row, one
 * step_finished); a step whose first attempt committed never called the model again; the
 * side-effect sink (an MCP server process appending to a file) sees ≤ 1 effect per idempotency
 * key, exactly 1 when the tool step succeeded; every run's event seq is contiguous from 1.
 * A worker starved of CPU may lose its BullMQ lock (a false stall): the run is taken over, and that
 * takeover must not count as a crash (workers/liveness.ts); the test reports how many it saw.
 * Recovery of a killed worker's runs is BullMQ's stall detection (lock 10 s + check every 5 s,
 * lib/queue/settings.ts), so the test takes ≈ 1–2 min on a quiet 2-core machine.
 */
const RUNS = 20;
const KILLS = 5;
const BEFORE = 4; // agents before the tool step
const AFTER = 4; // agents after it
let sinkDir = "";
const pool = useWorkerPool({
  fixtures: [
    { rules: [{ id: "step", match: { system: "[[d1]]" }, reply: { text: "done {{lastUser}}", delayMs: 700 } }] },
  ],
  size: 5,
  // the side-effect sink: an MCP server (stdio) the owner registered and approved
  setup: async ({ workspaceId }) => {
    sinkDir = mkdtempSync(path.join(tmpdir(), "weft-d1-"));
    const fixture = path.resolve(import.meta.dirname, "fixtures/effect-sink-mcp.mjs");
    const v = await saveMcpServer(workspaceId, "sink", {
      transport: "stdio",
      command: process.execPath,
      args: [fixture, path.join(sinkDir, "effects.log")],
    });
    await approveToolVersion(workspaceId, v.id, v.codeHash!);
  },
});
const { workers, start } = pool;
afterAll(() => {
  if (sinkDir) rmSync(sinkDir, { recursive: true, force: true });
});

const agentIds = [
  ...Array.from({ length: BEFORE }, (_, i) => `n${i + 1}`),
  ...Array.from({ length: AFTER }, (_, i) => `n${BEFORE + i + 1}`),
];
const agent = (id: string) => ({ id, type: "agent" as const, agent: "a", task: `{{inputs.token}} ${id}` });
const chain: WorkflowInput = {
  name: "D1 chain",
  inputs: [{ key: "token", type: "string" }],
  agents: [{ key: "a", name: "A", instructions: "[[d1]] Do one step.", model: { model: "scripted-demo" } }],
  nodes: [
    { id: "start", type: "start" },
    ...agentIds.slice(0, BEFORE).map(agent),
    { id: "effect", type: "tool", tool: { name: "sink__record" }, args: { key: "{{inputs.token}}" }, sideEffect: true },
    ...agentIds.slice(BEFORE).map(agent),
    { id: "end", type: "end" },
  ],
  edges: [
    ...["start", ...agentIds.slice(0, BEFORE)].map((s, i, all) => ({
      id: `a${i}`,
      source: s,
      sourceHandle: i === 0 ? "next" : "done",
      target: all[i + 1] ?? "effect",
    })),
    // an effect whose outcome is unknown (its worker died mid-call) is not repeated: it takes `error` and the run goes on
    { id: "t-done", source: "effect", sourceHandle: "done", target: `n${BEFORE + 1}` },
    { id: "t-error", source: "effect", sourceHandle: "error", target: `n${BEFORE + 1}` },
    ...agentIds
      .slice(BEFORE)
      .map((s, i, all) => ({ id: `b${i}`, source: s, sourceHandle: "done", target: all[i + 1] ?? "end" })),
  ],
};
const STEPS = agentIds.length + 3;

type Kill = { victim: WorkerProcess; line: string };
type Chaos = { tokens: string[]; runIds: string[]; kills: Kill[]; waves: number; t0: number };
type Interruptions = { nodes?: Record<string, { interruptions?: { owner: string | null; verdict: string }[] }> };

/** Starts RUNS runs (more waves if they all finish early) and SIGKILLs KILLS workers holding running steps. */
async function chaos(workflowId: string): Promise<Chaos> {
  const c: Chaos = { tokens: [], runIds: [], kills: [], waves: 0, t0: Date.now() };
  const wave = async () => {
    const batch = Array.from({ length: RUNS }, () => `tok${randomBytes(6).toString("hex")}`);
    const ids = await Promise.all(
      batch.map(async (token) => (await startRun(pool.workspaceId, workflowId, { inputs: { token } })).run.id),
    );
    c.tokens.push(...batch);
    c.runIds.push(...ids);
    c.waves++;
  };
  await wave();
  const killed = new Set<WorkerProcess>(); // a SIGKILLed child may not have reported its exit yet
  const killDeadline = Date.now() + 480_000;
  while (c.kills.length < KILLS) {
    expect(Date.now() < killDeadline, `only ${c.kills.length} kills before the deadline`).toBe(true);
    const live = await db().run.count({ where: { id: { in: c.runIds }, status: { notIn: TERMINAL as never[] } } });
    if (live === 0) {
      // replacements may start slower than the runs finish (30–70 s on a loaded machine): another
      // wave of RUNS concurrent runs keeps the workers busy until every kill has happened
      expect(c.waves, `every run finished after only ${c.kills.length} kills`).toBeLessThan(5);
      await wave();
    }
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 1_700)); // a random point in the runs' lives
    // only while another started worker survives: recovery then never waits for a start-up
    const ready = workers.filter((w) => alive(w) && !killed.has(w) && w.readyAt !== undefined);
    if (ready.length < 2) continue;
    const running = (await Promise.all(c.runIds.map(stepsNow))).flat().filter((s) => s.status === "running");
    const holders = [
      ...new Set(running.map((s) => workerOf(ready, s.leaseOwner)).filter((w): w is WorkerProcess => !!w)),
    ];
    const victim = holders[Math.floor(Math.random() * holders.length)];
    if (!victim) continue;
    killed.add(victim);
    const held = running.filter((s) => workerOf([victim], s.leaseOwner)).map((s) => s.nodeId);
    victim.child.kill("SIGKILL");
    c.kills.push({
      victim,
      line: `+${Date.now() - c.t0} ms: pid ${victim.child.pid} holding ${held.length} running steps (${[...new Set(held)].join(", ")})`,
    });
    start(); // the replacement; not awaited, the survivors keep working
  }
  return c;
}

/** The interruptions the run's planner state recorded, by node. */
const interruptionsOf = (state: unknown) =>
  Object.entries((state as Interruptions | null)?.nodes ?? {}).flatMap(([nodeId, n]) =>
    (n.interruptions ?? []).map((i) => ({ nodeId, ...i })),
  );

describe("D1 chaos", () => {
  it(
    `${RUNS} concurrent runs × ${STEPS} steps survive ${KILLS} SIGKILLs of workers at random points`,
    { timeout: 900_000 },
    async () => {
      onTestFailed(() => {
        const logFile = path.join(tmpdir(), `weft-d1-workers-${Date.now()}.log`);
        saveWorkerLogs(workers, logFile);
        console.info(`D1 failed: every worker's log is in ${logFile}`);
      });
      const { workflowId } = await createTestWorkflow(pool.workspaceId, chain);
      const { tokens, runIds, kills, waves, t0 } = await chaos(workflowId);
      console.info(`D1 kills:\n  ${kills.map((k) => k.line).join("\n  ")}`);
      const victims = kills.map((k) => k.victim);

      // one count per poll (not one poll per run): the test process stays light next to the workers
      await waitFor(
        async () =>
          (await db().run.count({ where: { id: { in: runIds }, status: { notIn: TERMINAL as never[] } } })) === 0,
        600_000,
        "every run terminal",
      );
      const done = await Promise.all(runIds.map((id) => waitTerminal(id)));
      console.info(
        `D1: all ${runIds.length} runs (${waves} wave(s) of ${RUNS}) terminal ${Date.now() - t0} ms after start`,
      );
      const sink = existsSync(path.join(sinkDir, "effects.log"))
        ? readFileSync(path.join(sinkDir, "effects.log"), "utf8").split("\n").filter(Boolean)
        : [];
      const requests = pool.model.requests();
      const tally = { redispatched: 0, unknownEffects: 0, takeovers: 0, crashes: 0, pending: 0, crashLoops: 0 };
      for (const [i, { run, steps, events }] of done.entries()) {
        const token = tokens[i]!;
        const interruptions = interruptionsOf(run.state);
        tally.takeovers += interruptions.filter((x) => x.verdict === "alive").length;
        tally.crashes += interruptions.filter((x) => x.verdict === "crashed").length;
        tally.pending += interruptions.filter((x) => x.verdict === "pending").length;
        // exactly one committed result per step: one row each, at most one step_finished each, and all of them when the run succeeded
        const rows = steps.map((s) => s.nodeId);
        expect(new Set(rows).size, token).toBe(rows.length);
        const finished = events
          .filter((e) => e.type === "step_finished")
          .map((e) => (e.payload as { nodeId: string }).nodeId);
        expect(finished.sort()).toEqual(
          rows.filter((n) => steps.find((s) => s.nodeId === n)!.status !== "running").sort(),
        );
        expect(events.filter((e) => e.type === "run_finished")).toHaveLength(1);
        expectContiguousSeq(events);
        if (run.status !== "succeeded") {
          // the only acceptable failure: a genuine crash loop, three attempts of one step each on a worker this test killed
          expect(run.reason ?? "", JSON.stringify(interruptions)).toMatch(
            /giving up after 3 attempts \(its worker died each time/,
          );
          const byVictims = (nodeId: string) =>
            interruptions.filter(
              (x) => x.nodeId === nodeId && x.verdict === "crashed" && victims.some((v) => workerOf([v], x.owner)),
            ).length;
          expect(Math.max(...interruptions.map((x) => byVictims(x.nodeId))), run.reason ?? "").toBeGreaterThanOrEqual(
            3,
          );
          tally.crashLoops++;
        } else {
          expect(rows.sort()).toEqual(["start", ...agentIds, "effect", "end"].sort());
          // every step succeeded, except an effect of unknown outcome: a failed try that took its `error` edge
          const ok = (s: (typeof steps)[number]) =>
            s.status === "succeeded" || (s.nodeId === "effect" && s.status === "failed" && s.branch === "error");
          expect(steps.every(ok), JSON.stringify(steps.map((s) => [s.nodeId, s.status, s.branch]))).toBe(true);
        }
        // a step runs again only when its attempt was interrupted: calls ≤ attempts, and = 1 for first-attempt commits
        for (const s of steps.filter((x) => agentIds.includes(x.nodeId) && x.status === "succeeded")) {
          const calls = requests.filter((q) => q.lastUser.trim() === `${token} ${s.nodeId}`).length;
          expect(calls, `${token} ${s.nodeId}`).toBeGreaterThanOrEqual(1);
          expect(calls, `${token} ${s.nodeId}`).toBeLessThanOrEqual(s.attempt);
        }
        tally.redispatched += steps.reduce((n, s) => n + s.attempt - 1, 0);
        // the side effect: at most once per idempotency key; exactly once when the tool step took `done`
        const effect = steps.find((s) => s.nodeId === "effect");
        const seen = sink.filter((k) => k === token).length;
        expect(seen, token).toBeLessThanOrEqual(1);
        if (effect?.status === "succeeded" && effect.branch === "done") expect(seen, token).toBe(1);
        else if (effect) tally.unknownEffects++;
        expect(await db().toolEffect.count({ where: { runId: run.id } })).toBe(effect ? 1 : 0);
      }
      console.info(
        `D1: ${kills.length} SIGKILLs, ${tally.redispatched} step attempts re-dispatched (interruptions judged: ${tally.crashes} crashes, ${tally.takeovers} takeovers from live workers not counted, ${tally.pending} still pending when the step finished — a verdict is awaited only when it decides a crash loop), ${tally.crashLoops} genuine crash loops, ${sink.length} effects for ${runIds.length} keys, ${tally.unknownEffects} effects of unknown outcome not repeated`,
      );
      const logs = workers.flatMap((w) => w.logs);
      const lockLost = logs.filter((l) => l.includes("could not renew lock")).length;
      const stalled = logs.filter((l) => l.includes("stalled run job re-queued")).length;
      console.info(
        `D1: worker logs: ${stalled} stalled jobs re-queued by BullMQ, ${lockLost} lock renewals failed (a live worker losing its lock)`,
      );
      expect(kills).toHaveLength(KILLS);
    },
  );
});
