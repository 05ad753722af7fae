import { launchWorkerProcess } from "@/workers/process";
import { leanStore } from "./lean-store";
import { trivialModelPort } from "./trivial-node";

/**
 * B1's worker process: the run worker of `npm run worker` (workers/process.ts: BullMQ, PostgreSQL,
 * wake-ups, reconciler, graceful stop) with the trivial node functions as its model
 * (trivial-node.ts), so B1 measures the engine's overhead per step rather than a model's transport.
 * B1_STORE=lean swaps in the step log's statements (lean-store.ts, a diagnostic).
 */
const store = process.env.B1_STORE;
if (store && store !== "lean") throw new Error(`B1_STORE must be "lean" or unset, not "${store}"`);
const port = trivialModelPort();
launchWorkerProcess({ model: () => port, ...(store ? { store: leanStore } : {}) });
