import { launchWorkerProcess } from "@/workers/process";
import { trivialModelPort } from "./trivial-node";

/**
 * B1's worker process: the run worker of `npm run worker` (workers/process.ts: BullMQ, PostgreSQL,
 * wake-ups, reconciler, graceful stop) with the trivial node functions as its model
 * (trivial-node.ts), so B1 measures the engine's overhead per step rather than a model's transport.
 */
const port = trivialModelPort();
launchWorkerProcess({ model: () => port });
