/**
 * B2 writer, in its own process (as the worker is in production, so its PostgreSQL client and
 * commits never share an event loop with the SSE server being measured). The parent sends one
 * `produce` order per arm; this writes `rate` events/s to each run for `seconds` the way that arm's
 * producer would and answers with, per event, when it was created and when it was handed over
 * (committed for the product and poll arms, handed to PUBLISH for the relay).
 */
import { apiRedis, closeApiRedis } from "@/lib/queue";
import { db } from "@/lib/db/client";
import { appendEvents } from "@/lib/events/store";
import { publishRunEvents } from "@/lib/events/publish";
import { relayChannel } from "./channels";
import type { ProduceOrder, ProducerReply, Stamp } from "./protocol";

/** Generous waits: on a loaded 2-core machine a pool slot can take seconds (the delay is measured, not fatal). */
const TX = { maxWait: 30_000, timeout: 30_000 };
const stamp = () => performance.timeOrigin + performance.now();
const reply = (m: ProducerReply) => process.send!(m);

async function one(order: ProduceOrder, runId: string, i: number): Promise<Stamp> {
  const created = stamp();
  if (order.arm === "relay") {
    const handed = stamp();
    await apiRedis().publish(relayChannel(order.prefix, runId), JSON.stringify({ seq: i + 1, t: created }));
    return [runId, i + 1, created, handed];
  }
  const stored = await db().$transaction(
    (tx) => appendEvents(tx, runId, [{ type: "step_progress", nodeId: "n", iteration: 1, message: "tick", detail: { t: created } }]),
    TX,
  );
  const committed = stamp();
  if (order.arm === "product") await publishRunEvents(runId, stored);
  return [runId, stored[0]!.seq, created, committed];
}

async function produce(order: ProduceOrder): Promise<void> {
  const total = Math.max(1, Math.round(order.rate * order.seconds));
  const interval = 1000 / order.rate;
  const stamps: Stamp[] = [];
  const t0 = stamp();
  for (let i = 0; i < total; i++) {
    const due = t0 + i * interval - stamp();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    if (i === Math.floor(total / 2)) reply({ type: "half" });
    stamps.push(...(await Promise.all(order.runIds.map((id) => one(order, id, i)))));
  }
  reply({ type: "done", total, stamps });
}

process.on("message", (m: ProduceOrder | { type: "exit" }) => {
  if (m.type === "exit") {
    void Promise.all([closeApiRedis(), db().$disconnect()]).finally(() => process.exit(0));
    return;
  }
  produce(m).catch((err: unknown) => reply({ type: "error", message: String((err as Error).stack ?? err) }));
});

// warm up both clients so the first measured event pays no connection set-up
await db().$queryRaw`SELECT 1`;
await apiRedis().ping();
reply({ type: "ready" });
