import type { StorePort } from "@/lib/engine/ports";
import { launchWorkerProcess } from "@/workers/process";
import { storeTiming } from "./store-timing";
import { trivialModelPort } from "./trivial-node";

/**
 * B1's worker process: the run worker of `npm run worker` (workers/process.ts: BullMQ, PostgreSQL,
 * wake-ups, reconciler, graceful stop) with the trivial node functions as its model
 * (trivial-node.ts), so B1 measures the engine's overhead per step rather than a model's transport.
 * B1_TIMING=1 times the store's calls inside this process (store-timing.ts) and logs them when the
 * worker is stopped. WEFT_STEP_LOG_MS=0 (passed on from the bench's environment) turns the step log
 * off (lib/run-store/held-runs.ts): the A/B of that design without a second checkout.
 */
const timing = process.env.B1_TIMING === "1" ? storeTiming() : undefined;
// registered before the worker's own SIGTERM handler, which exits once the worker has stopped
if (timing) process.once("SIGTERM", () => timing.report());
const port = trivialModelPort();
launchWorkerProcess({ model: () => port, ...(timing ? { store: (s: StorePort) => timing.wrap(s) } : {}) });
