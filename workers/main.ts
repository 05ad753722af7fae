import { launchWorkerProcess } from "./process";

/** The run worker (`npm run worker`) with the real ports: workers/process.ts. */
launchWorkerProcess();
