/**
 * B2 writer, in its own process (as the worker is in production, so its PostgreSQL client and
 * commits never share an event loop with the SSE server being measured). The parent sends one
 * `produce` order per arm; this writes `rate` events/s to each run for `seconds` the way that arm's
 * producer would and answers with, per event, when it was created and when it was handed over
 * (committed for the product and poll arms, handed to PUBLISH for the relay).
 *
 * The product and poll arms write the way the worker does (lib/run-store/postgres-store.ts → run-sql.ts): each
 * run is claimed once (`sqlClaim`: lease + version), then every event is one `sqlCommit` (a single
 * statement on the run store's own pg pool, guarded by version and lease); the product arm then
 * publishes the committed envelopes (`publishRunEvents`, what the driver's EventsPort does),
 * batched per run as the driver batches them (lib/engine/driver/wakes.ts, its default window): an
 * event's "published" stamp is when its batch was handed to Redis.
 */
import { apiRedis, closeApiRedis } from "@/lib/queue";
import { closeRunStorePool, runStorePool, sqlClaim, sqlCommit } from "@/lib/run-store/run-sql";
import type { StoredEvent } from "@/lib/engine/ports";
import { publishRunEvents } from "@/lib/events/publish";
import type { RunEvent } from "@/lib/engine/events";
import { systemClock } from "@/lib/engine/clock";
import { DEFAULT_WAKE_WINDOW_MS, WakeBatcher } from "@/lib/engine/driver/wakes";
import { relayChannel } from "./channels";
import type { ProduceOrder, ProducerReply, Stamp } from "./protocol";

const OWNER = `b2-producer-${process.pid}`;
const stamp = () => performance.timeOrigin + performance.now();
const reply = (m: ProducerReply) => process.send!(m);
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** The version each claimed run is at (the next commit's expectedVersion). */
type Versions = Map<string, number>;

async function claimAll(runIds: readonly string[]): Promise<Versions> {
  const versions: Versions = new Map();
  await Promise.all(
    runIds.map(async (runId) => {
      const claim = await sqlClaim(runId, OWNER);
      if (!claim.ok) throw new Error(`claim of run ${runId} refused: ${claim.reason}`);
      versions.set(runId, claim.run.version);
    }),
  );
  return versions;
}

/** Per run: the driver's wake-up batching, and the events waiting for their batch to be published. */
const wakes = new Map<string, { batcher: WakeBatcher; waiting: Map<number, (t: number) => void> }>();

function wakesOf(runId: string) {
  let w = wakes.get(runId);
  if (!w) {
    const waiting = new Map<number, (t: number) => void>();
    const send = (events: StoredEvent[]) =>
      void publishRunEvents(runId, events).then(() => {
        const t = stamp();
        for (const e of events) waiting.get(e.seq)?.(t);
        for (const e of events) waiting.delete(e.seq);
      });
    w = { batcher: new WakeBatcher(send, systemClock, DEFAULT_WAKE_WINDOW_MS), waiting };
    wakes.set(runId, w);
  }
  return w;
}

/**
 * One event of one run: created, committed (or handed to PUBLISH), and for the product arm handed
 * to the run's wake-up batcher WITHOUT waiting for it, as the driver does (it commits the next step
 * while the wake-up goes out); `published` fills the stamp's last field when Redis acknowledged.
 */
async function one(
  order: ProduceOrder,
  versions: Versions,
  runId: string,
  i: number,
  published: Promise<void>[],
): Promise<Stamp> {
  const created = stamp();
  if (order.arm === "relay") {
    const handed = stamp();
    await apiRedis().publish(relayChannel(order.prefix, runId), JSON.stringify({ seq: i + 1, t: created }));
    return [runId, i + 1, created, handed, stamp()];
  }
  const event: RunEvent = { type: "step_progress", nodeId: "n", iteration: 1, message: "tick", detail: { t: created } };
  const res = await sqlCommit(runId, { owner: OWNER, expectedVersion: versions.get(runId)!, events: [event] });
  const committed = stamp();
  if (res.kind !== "ok") throw new Error(`commit to run ${runId} ${res.kind}`);
  versions.set(runId, res.version);
  const seq = res.events[0]!.seq;
  const s: Stamp = [runId, seq, created, committed, null];
  if (order.arm !== "product") return s;
  const w = wakesOf(runId);
  published.push(
    new Promise<void>((resolve) =>
      w.waiting.set(seq, (t) => {
        s[4] = t;
        resolve();
      }),
    ),
  );
  w.batcher.push(res.events);
  return s;
}

/**
 * Each run writes on its own clock (event i due at t0 + i / rate), one commit after the other as a
 * run's steps do, and never waits for another run: a slow commit of one run does not hold back the
 * others (a shared round per tick made every run wait for the slowest commit and publish, then
 * commit in a burst: bench/history.md).
 */
async function produce(order: ProduceOrder): Promise<void> {
  const cpu = process.cpuUsage();
  const versions = order.arm === "relay" ? new Map<string, number>() : await claimAll(order.runIds);
  const total = Math.max(1, Math.round(order.rate * order.seconds));
  const interval = 1000 / order.rate;
  const stamps: Stamp[] = [];
  const published: Promise<void>[] = [];
  const half = Math.floor((total * order.runIds.length) / 2);
  const t0 = stamp();
  await Promise.all(
    order.runIds.map(async (runId) => {
      for (let i = 0; i < total; i++) {
        const due = t0 + i * interval - stamp();
        if (due > 0) await new Promise((r) => setTimeout(r, due));
        stamps.push(await one(order, versions, runId, i, published));
        if (stamps.length === half) reply({ type: "half" });
      }
    }),
  );
  await Promise.all(published);
  reply({ type: "done", total: stamps.length, stamps, cpuMs: cpuMs(cpu) });
}

process.on("message", (m: ProduceOrder | { type: "exit" }) => {
  if (m.type === "exit") {
    void Promise.all([closeApiRedis(), closeRunStorePool()]).finally(() => process.exit(0));
    return;
  }
  produce(m).catch((err: unknown) => reply({ type: "error", message: String((err as Error).stack ?? err) }));
});

// warm up both clients so the first measured event pays no connection set-up
await runStorePool().query("SELECT 1");
await apiRedis().ping();
reply({ type: "ready" });
