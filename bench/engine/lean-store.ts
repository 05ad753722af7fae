import type { RunCommit, StorePort, StoredEvent } from "@/lib/engine/ports";
import { isTerminalRunStatus } from "@/lib/engine/events";
import { eventPayload } from "@/lib/events/store";
import { runStorePool } from "@/lib/runs/store-sql";

/**
 * B1 diagnostic, not a store: the append-only step log's statements (lib/engine/README.md, "Next")
 * under the REAL engine, to price the design with the engine's own per-step work before building
 * it (`B1_STORE=lean npm run bench -- engine`). Runs this process claimed fresh get: every commit
 * without a status change ONE insert of its events at the seqs counted here, the batch's planner
 * state on its last event, fenced by a share lock on the Run row still leased to this worker at the
 * claimed version; the terminal commit the Run row's update, its events and every Step row of the
 * run, from what this process remembers. Not valid semantics: nothing reads the log back (a
 * resumed, re-claimed or cancelled run, a reader of Step rows mid-run), so it is for B1 only.
 */
const EVENTS_SQL = `WITH lease AS (SELECT 1 FROM "Run" WHERE id = $1 AND version = $4 AND "leaseOwner" = $5 AND status = 'running' FOR SHARE)
INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
SELECT $1, $2::int + x.ord::int - 1, x.e->>'type', x.e->'payload', $6::timestamp(3) FROM lease, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(e, ord)`;

const FINISH_SQL = `
WITH r AS (
  UPDATE "Run" SET status = ($4::jsonb->>'status')::"RunStatus", reason = $4::jsonb->>'reason', outputs = $4::jsonb->'outputs', state = $4::jsonb->'state',
    "finishedAt" = $7::timestamp(3), "nextSeq" = $2::int + jsonb_array_length($3::jsonb), version = version + 1,
    "promptTokens" = "promptTokens" + ($4::jsonb->>'prompt')::int, "completionTokens" = "completionTokens" + ($4::jsonb->>'completion')::int,
    "stepCount" = "stepCount" + ($4::jsonb->>'steps')::int
  WHERE id = $1 AND version = $8 AND "leaseOwner" = $6 AND status = 'running' RETURNING version
), ev AS (
  INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
  SELECT $1, $2::int + x.ord::int - 1, x.e->>'type', x.e->'payload', $7::timestamp(3) FROM r, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(e, ord)
), st AS (
  INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, input, output, branch, "promptTokens", "completionTokens", "latencyMs", error,
    "startedAt", "finishedAt", "leaseOwner")
  SELECT gen_random_uuid()::text, $1, s->>'nodeId', (s->>'iteration')::int, (s->>'attempt')::int, (s->>'status')::"StepStatus", s->'input', s->'output',
    s->>'branch', (s->>'promptTokens')::int, (s->>'completionTokens')::int, (s->>'latencyMs')::int, s->>'error', (s->>'startedAt')::timestamp(3),
    (s->>'finishedAt')::timestamp(3), $6
  FROM r, jsonb_array_elements($5::jsonb) AS s
  ON CONFLICT ("runId", "nodeId", iteration) DO UPDATE SET attempt = EXCLUDED.attempt, status = EXCLUDED.status, output = EXCLUDED.output,
    branch = EXCLUDED.branch, "finishedAt" = EXCLUDED."finishedAt"
)
SELECT version FROM r`;

interface Remembered {
  next: number;
  version: number;
  /** Step rows of the run by node and iteration, as the projection would write them. */
  steps: Map<string, Record<string, unknown>>;
  tokens: { prompt: number; completion: number; steps: number };
}

const key = (s: { nodeId: string; iteration: number }) => `${s.nodeId}#${s.iteration}`;

/** The commit's step writes, into the Step rows the terminal commit will write. */
function remember(run: Remembered, c: RunCommit): void {
  for (const s of c.stepStarts ?? []) {
    run.steps.set(key(s), { nodeId: s.nodeId, iteration: s.iteration, attempt: s.attempt, status: "running", input: s.input ?? null, startedAt: s.at.toISOString() });
  }
  for (const s of c.stepSkips ?? []) run.steps.set(key(s), { nodeId: s.nodeId, iteration: s.iteration, attempt: 1, status: "skipped", finishedAt: s.at.toISOString() });
  for (const r of c.stepResults ?? []) {
    const row = run.steps.get(key(r));
    if (row) Object.assign(row, { status: r.status, output: r.output ?? null, branch: r.branch, promptTokens: r.promptTokens, completionTokens: r.completionTokens, latencyMs: r.latencyMs, error: r.error, finishedAt: r.at.toISOString() });
  }
}

/** The commit's counters, which the terminal commit adds to the Run row. */
function count(run: Remembered, c: RunCommit): void {
  run.tokens.prompt += c.run?.addTokens?.promptTokens ?? 0;
  run.tokens.completion += c.run?.addTokens?.completionTokens ?? 0;
  run.tokens.steps += c.run?.addSteps ?? 0;
}

const eventRows = (c: RunCommit) => (c.events ?? []).map((e, i, all) => {
  const payload = eventPayload(e);
  return { type: e.type, payload: i === all.length - 1 && c.run?.plannerState ? { ...payload, state: c.run.plannerState } : payload };
});

export function leanStore(inner: StorePort): StorePort {
  const runs = new Map<string, Remembered>();
  const stored = (c: RunCommit, first: number, at: Date): StoredEvent[] => (c.events ?? []).map((event, i) => ({ seq: first + i, at, event }));
  return {
    ...inner,
    claimFresh: async (runId, c, fresh) => {
      const res = await inner.claimFresh!(runId, c, fresh);
      if (res.ok) {
        const run: Remembered = { next: (res.events.at(-1)?.seq ?? 0) + 1, version: res.version, steps: new Map(), tokens: { prompt: 0, completion: 0, steps: 0 } };
        remember(run, c); // its counters are on the Run row already
        runs.set(runId, run);
      }
      return res;
    },
    commit: async (runId, c) => {
      const run = runs.get(runId);
      if (!run || c.expectedVersion !== run.version || (c.run?.status && !isTerminalRunStatus(c.run.status))) {
        runs.delete(runId);
        return inner.commit(runId, c);
      }
      remember(run, c);
      count(run, c);
      const rows = eventRows(c);
      const at = new Date();
      const pool = runStorePool();
      if (!c.run?.status) {
        const res = await pool.query({ name: "b1_lean_events", text: EVENTS_SQL, values: [runId, run.next, JSON.stringify(rows), run.version, c.owner, at.toISOString()] });
        if (res.rowCount !== rows.length) return { ok: false, reason: "lost_lease" };
        const events = stored(c, run.next, at);
        run.next += rows.length;
        return { ok: true, version: run.version, events };
      }
      runs.delete(runId);
      const w = c.run;
      const res = await pool.query<{ version: number }>({
        name: "b1_lean_finish", text: FINISH_SQL,
        values: [runId, run.next, JSON.stringify(rows), JSON.stringify({ status: w.status, reason: w.reason ?? "", outputs: w.outputs ?? null, state: w.plannerState ?? {}, ...run.tokens }),
          JSON.stringify([...run.steps.values()]), c.owner, at.toISOString(), run.version],
      });
      const row = res.rows[0];
      if (!row) return { ok: false, reason: "lost_lease" };
      return { ok: true, version: row.version, events: stored(c, run.next, at) };
    },
  };
}
