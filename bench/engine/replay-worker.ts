/**
 * B1 diagnostic, not an engine: the run store's cost without the engine. A worker process that
 * takes the same BullMQ start jobs as the run worker and runs the FIRST run of each workflow
 * version for real (runJob with B1's trivial nodes, the real ports, its commits recorded); every
 * later run of that version replays the recorded commits through the real store statements
 * (store-sql.ts sqlCommit: the fresh claim with the first commit, then each commit at the version
 * the previous one answered), sequentially, with no planner, executor or wake-ups between them,
 * and publishes only the run's last wake-up. Between floor-worker.ts (one INSERT per step) and the
 * real worker, its B1 ratio (`B1_WORKER=replay npm run bench -- engine`) splits the engine's cost
 * above the floor into the store's statements and the engine's own per-step work. B1_REPLAY=lean
 * prices the append-only step log's statements instead (see LEAN below).
 */
import { randomBytes } from "node:crypto";
import { runJob } from "@/lib/engine/driver";
import type { RunCommit } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import type { RunJobData } from "@/lib/queue";
import { enginePorts } from "@/lib/runs/engine-ports";
import { runStorePool, sqlCommit } from "@/lib/runs/store-sql";
import { publishFinished, startDiagnosticWorker, whenRowLands } from "./diagnostic-worker";
import { trivialModelPort } from "./trivial-node";

const OWNER = `b1-replay-${randomBytes(3).toString("hex")}`;
const log = createLogger({ component: "b1-replay" });
const model = trivialModelPort();
/** Per workflow version: the commits its first run made, in order (the first one rode on the fresh claim). */
const recordings = new Map<string, RunCommit[]>();

async function record(runId: string, versionId: string, fresh: RunJobData["fresh"]): Promise<void> {
  const commits: RunCommit[] = [];
  const ports = enginePorts(null, log);
  const store = ports.store;
  ports.store = {
    ...store,
    commit: (id, c) => (commits.push(structuredClone(c)), store.commit(id, c)),
    claimFresh: (id, c, f) => (commits.push(structuredClone(c)), store.claimFresh!(id, c, f)),
  };
  ports.model = model;
  const out = await runJob(ports, runId, { owner: OWNER, ...(fresh ? { fresh } : {}) });
  if (out.kind !== "terminal" || out.status !== "succeeded") throw new Error(`replay worker: recording run ended ${JSON.stringify(out)}`);
  recordings.set(versionId, commits);
}

/**
 * B1_REPLAY=lean: the statements of the append-only step log (lib/engine/README.md, "Next"), to
 * price that design before building it. Not valid semantics (nothing reads it back): the fresh
 * claim as today; every commit without a status change ONE insert of its events at the seqs this
 * worker counts, the batch's stored planner state on its last event, fenced by a share lock on the
 * Run row that must still be leased to this worker (no Run or Step write); the terminal commit the
 * Run row's update, its events and every Step row of the run in one statement.
 */
const LEAN = process.env.B1_REPLAY === "lean";
const LEAN_EVENTS_SQL = `WITH lease AS (SELECT 1 FROM "Run" WHERE id = $1 AND "leaseOwner" = $4 AND status = 'running' FOR SHARE)
INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
SELECT $1, $2::int + x.ord::int - 1, x.e->>'type', x.e->'payload', now() FROM lease, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(e, ord)`;
const LEAN_FINISH_SQL = `
WITH r AS (
  UPDATE "Run" SET status = ($4::jsonb->>'status')::"RunStatus", reason = $4::jsonb->>'reason', outputs = $4::jsonb->'outputs', state = $4::jsonb->'state',
    "finishedAt" = now(), "nextSeq" = $2::int + jsonb_array_length($3::jsonb), version = version + 1
  WHERE id = $1 AND "leaseOwner" = $6 RETURNING id
), ev AS (
  INSERT INTO "RunEvent" ("runId", seq, type, payload, "createdAt")
  SELECT $1, $2::int + x.ord::int - 1, x.e->>'type', x.e->'payload', now() FROM r, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(e, ord)
)
INSERT INTO "Step" (id, "runId", "nodeId", iteration, attempt, status, input, output, "startedAt", "finishedAt", "leaseOwner")
SELECT gen_random_uuid()::text, $1, s->>'nodeId', (s->>'iteration')::int, (s->>'attempt')::int, 'succeeded', s->'input', s->'output', now(), now(), $6
FROM r, jsonb_array_elements($5::jsonb) AS s
ON CONFLICT ("runId", "nodeId", iteration) DO NOTHING`;

const eventRows = (c: RunCommit, withState: boolean) => (c.events ?? []).map((e, i, all) => {
  const { type, ...payload } = e;
  return { type, payload: withState && i === all.length - 1 && c.run?.plannerState ? { ...payload, state: c.run.plannerState } : payload };
});

async function leanTail(runId: string, commits: RunCommit[], first: number): Promise<number> {
  let seq = first;
  const pool = runStorePool();
  for (const c of commits.slice(1, -1)) {
    const rows = eventRows(c, true);
    const res = await pool.query({ name: "lean_events_v2", text: LEAN_EVENTS_SQL, values: [runId, seq, JSON.stringify(rows), OWNER] });
    if (res.rowCount !== rows.length) throw new Error(`replay worker: lean commit of run ${runId} found no lease`);
    seq += rows.length;
  }
  const end = commits.at(-1)!;
  const rows = eventRows(end, false);
  const steps = commits.flatMap((c) => (c.stepStarts ?? []).filter((s) => s.attempt === 1).map((s) => ({ nodeId: s.nodeId, iteration: s.iteration, attempt: s.attempt, input: s.input ?? null, output: "ok" })));
  const w = end.run ?? {};
  await pool.query({
    name: "lean_finish", text: LEAN_FINISH_SQL,
    values: [runId, seq, JSON.stringify(rows), JSON.stringify({ status: w.status, reason: w.reason ?? "", outputs: w.outputs ?? {}, state: w.plannerState ?? {} }), JSON.stringify(steps), OWNER],
  });
  return seq + rows.length - 1;
}

async function replay(runId: string, commits: RunCommit[], fresh: NonNullable<RunJobData["fresh"]>): Promise<void> {
  let version = 0;
  let last = 0;
  for (const [i, c] of commits.entries()) {
    if (LEAN && i === 1) {
      last = await leanTail(runId, commits, last + 1);
      break;
    }
    const commit = () => sqlCommit(runId, { ...c, owner: OWNER, expectedVersion: version }, i === 0 ? fresh : undefined);
    // only the first commit (the fresh claim) may find no row yet
    const res = i === 0 ? await whenRowLands(async () => { const r = await commit(); return r.kind === "ok" ? r : null; }) : await commit();
    if (res?.kind !== "ok") throw new Error(`replay worker: commit ${i} of run ${runId}: ${res?.kind ?? "refused"}`);
    version = res.version;
    last = res.events.at(-1)?.seq ?? last;
  }
  await publishFinished(runId, last);
}

await startDiagnosticWorker(OWNER, async ({ runId, fresh }) => {
  if (!fresh) throw new Error("replay worker: a start job without its fresh claim data");
  const commits = recordings.get(fresh.versionId);
  return commits ? replay(runId, commits, fresh) : record(runId, fresh.versionId, fresh);
});
