/**
 * B1 diagnostic, not an engine: the run store's cost without the engine. A worker process that
 * takes the same BullMQ start jobs as the run worker and runs the FIRST run of each workflow
 * version for real (runJob with B1's trivial nodes, the real ports, its commits recorded); every
 * later run of that version replays the recorded commits through the real store statements
 * (store-sql.ts sqlCommit: the fresh claim with the first commit, then each commit at the version
 * the previous one answered), sequentially, with no planner, executor or wake-ups between them,
 * and publishes only the run's last wake-up. Between floor-worker.ts (one INSERT per step) and the
 * real worker, its B1 ratio (`B1_WORKER=replay npm run bench -- engine`) splits the engine's cost
 * above the floor into the store's statements and the engine's own per-step work.
 */
import { randomBytes } from "node:crypto";
import { Worker } from "bullmq";
import { runJob } from "@/lib/engine/driver";
import type { RunCommit } from "@/lib/engine/ports";
import { publishRunEvents } from "@/lib/events/publish";
import { createLogger } from "@/lib/logger";
import { createWorkerConnection, queuePrefix, RUNS_QUEUE, RUNS_WORKER_STALL_SETTINGS, type RunJobData } from "@/lib/queue";
import { enginePorts } from "@/lib/runs/engine-ports";
import { sqlCommit } from "@/lib/runs/store-sql";
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

async function replay(runId: string, commits: RunCommit[], fresh: NonNullable<RunJobData["fresh"]>): Promise<void> {
  let version = 0;
  let last = 0;
  for (const [i, c] of commits.entries()) {
    // the start job may arrive before its Run row is committed (startRun writes both at once)
    for (let tries = 0; ; tries++) {
      const res = await sqlCommit(runId, { ...c, owner: OWNER, expectedVersion: version }, i === 0 ? fresh : undefined);
      if (res.kind === "ok") {
        version = res.version;
        last = res.events.at(-1)?.seq ?? last;
        break;
      }
      if (i > 0 || tries === 50) throw new Error(`replay worker: commit ${i} of run ${runId}: ${res.kind}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  await publishRunEvents(runId, [{ seq: last, at: new Date(), event: { type: "run_finished", status: "succeeded", reason: "", outputs: {} } }]);
}

const connection = createWorkerConnection("b1-replay");
const worker = new Worker<RunJobData>(RUNS_QUEUE, async (job) => {
  const { runId, fresh } = job.data;
  if (!fresh) throw new Error("replay worker: a start job without its fresh claim data");
  const commits = recordings.get(fresh.versionId);
  return commits ? replay(runId, commits, fresh) : record(runId, fresh.versionId, fresh);
}, { connection, prefix: queuePrefix(), concurrency: 20, name: OWNER, ...RUNS_WORKER_STALL_SETTINGS });
await worker.waitUntilReady();
// test/helpers/worker.ts waits for this line (no health port is served here)
process.stderr.write(`${JSON.stringify({ msg: "worker ready", healthPort: 0 })}\n`);
const stop = () => void worker.close().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
