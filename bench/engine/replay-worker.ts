/**
 * B1 diagnostic, not an engine: the run store's cost without the engine. A worker process that
 * takes the same BullMQ start jobs as the run worker and runs the FIRST run of each workflow
 * version for real (runJob with B1's trivial nodes, the real ports, its commits recorded); every
 * later run of that version replays the recorded commits through the real store (lib/runs
 * postgresStore: its claim, then one statement per commit at the version the previous one answered), sequentially, with no planner, executor or wake-ups between them,
 * and publishes only the run's last wake-up. Between floor-worker.ts (one INSERT per step) and the
 * real worker, its B1 ratio (`B1_WORKER=replay npm run bench -- engine`) splits the engine's cost
 * above the floor into the store's statements and the engine's own per-step work.
 */
import { randomBytes } from "node:crypto";
import { runJob } from "@/lib/engine/driver";
import type { RunCommit } from "@/lib/engine/ports";
import { createLogger } from "@/lib/logger";
import { enginePorts } from "@/workers/engine-ports";
import { postgresStore } from "@/lib/run-store/postgres-store";
import { publishFinished, startDiagnosticWorker, whenRowLands } from "./diagnostic-worker";
import { trivialModelPort } from "./trivial-node";

const OWNER = `b1-replay-${randomBytes(3).toString("hex")}`;
const log = createLogger({ component: "b1-replay" });
const model = trivialModelPort();
/** Per workflow version: the commits its first run made after its claim, in order. */
const recordings = new Map<string, RunCommit[]>();
const store = postgresStore();

/** The first run of a version: run for real (its own claim), its commits recorded. */
async function record(runId: string, versionId: string): Promise<void> {
  const commits: RunCommit[] = [];
  const ports = enginePorts(null, log);
  const inner = ports.store;
  // the claim below already took the run: the engine's own claim takes it over again
  ports.store = { ...inner, commit: (id, c) => (commits.push(structuredClone(c)), inner.commit(id, c)) };
  ports.model = model;
  const out = await runJob(ports, runId, { owner: OWNER });
  if (out.kind !== "terminal" || out.status !== "succeeded")
    throw new Error(`replay worker: recording run ended ${JSON.stringify(out)}`);
  recordings.set(versionId, commits);
}

/** A later run of the version: the recorded commits after a claim, each at the version the previous one answered. */
async function replay(runId: string, claimedVersion: number, commits: RunCommit[]): Promise<void> {
  let version = claimedVersion;
  let last = 0;
  for (const [i, c] of commits.entries()) {
    const res = await store.commit(runId, { ...c, owner: OWNER, expectedVersion: version });
    if (!res.ok) throw new Error(`replay worker: commit ${i} of run ${runId} refused`);
    version = res.version;
    last = res.events.at(-1)?.seq ?? last;
  }
  await publishFinished(runId, last);
}

await startDiagnosticWorker(OWNER, async ({ runId }) => {
  // the job may come before its row: claim until it lands, as the run worker does
  const claim = await whenRowLands(async () => {
    const c = await store.claimRun(runId, OWNER);
    return c.ok ? c.run : null;
  });
  if (!claim?.workflowVersionId) throw new Error(`replay worker: run ${runId} not claimed`);
  const commits = recordings.get(claim.workflowVersionId);
  return commits ? replay(runId, claim.version, commits) : record(runId, claim.workflowVersionId);
});
