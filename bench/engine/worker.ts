import type { StorePort } from "@/lib/engine/ports";
import { launchWorkerProcess } from "@/workers/process";
import { leanStore } from "./lean-store";
import { storeTiming } from "./store-timing";
import { trivialModelPort } from "./trivial-node";

/**
 * B1's worker process: the run worker of `npm run worker` (workers/process.ts: BullMQ, PostgreSQL,
 * wake-ups, reconciler, graceful stop) with the trivial node functions as its model
 * (trivial-node.ts), so B1 measures the engine's overhead per step rather than a model's transport.
 * B1_STORE=lean swaps in the step log's statements (lean-store.ts, a diagnostic); B1_TIMING=1 times
 * the store's calls inside this process (store-timing.ts) and logs them when the worker is stopped.
 */
const store = process.env.B1_STORE;
if (store && store !== "lean") throw new Error(`B1_STORE must be "lean" or unset, not "${store}"`);
const timing = process.env.B1_TIMING === "1" ? storeTiming() : undefined;
// registered before the worker's own SIGTERM handler, which exits once the worker has stopped
if (timing) process.once("SIGTERM", () => timing.report());
const port = trivialModelPort();
const wrap = (s: StorePort): StorePort => {
  const inner = store ? leanStore(s) : s;
  return timing ? timing.wrap(inner) : inner;
};
launchWorkerProcess({ model: () => port, ...(store || timing ? { store: wrap } : {}) });
