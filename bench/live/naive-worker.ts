import { db } from "@/lib/db/client";
import type { LiveStepKey, LiveTextPort, LiveTextSink } from "@/lib/engine/ports";
import { appendEvents } from "@/lib/events/event-log";
import { publishRunEvents } from "@/lib/events/publish";
import { launchWorkerProcess } from "@/workers/process";

/**
 * B2b's naive arm: the run worker of `npm run worker` with a live text port that appends every
 * piece of model text to the durable event log, as a tool without an ephemeral channel would: one
 * transaction per token (a `step_progress` event carrying the text, its seq reserved under the Run
 * row's lock like every writer of the log), then the usual wake-up carrying the stored event. Writes
 * of one step are chained so they keep their order; the step itself never waits for them.
 */
class DurableTokenSink implements LiveTextSink {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly key: LiveStepKey) {}

  append(text: string): void {
    if (!text) return;
    const { runId, nodeId, iteration } = this.key;
    this.chain = this.chain
      .then(async () => {
        const stored = await db().$transaction((tx) =>
          appendEvents(tx, runId, [{ type: "step_progress", nodeId, iteration, message: "token", detail: { text } }]),
        );
        await publishRunEvents(runId, stored);
      })
      .catch(() => undefined);
  }

  truncate(): void {}
  tool(): void {}
  close(): void {}
}

const durableTokens: LiveTextPort = { open: (key) => new DurableTokenSink(key) };
launchWorkerProcess({ live: durableTokens });
