/** Messages between the B2 harness and its writer process (bench/live/producer.ts). */
export type Arm = "product" | "relay" | "poll";

export interface ProduceOrder {
  type: "produce";
  arm: Arm;
  runIds: string[];
  rate: number;
  seconds: number;
  prefix: string;
}

/**
 * [runId, seq, created, handed over (committed, or given to PUBLISH), PUBLISH acknowledged by Redis
 * (null for the poll arm, which publishes nothing)] — epoch ms, same host clock as the page.
 */
export type Stamp = [string, number, number, number, number | null];

export type ProducerReply =
  | { type: "ready" }
  | { type: "half" }
  /** `cpuMs`: CPU time (user + system) the writer process spent on this order. */
  | { type: "done"; total: number; stamps: Stamp[]; cpuMs: number }
  | { type: "error"; message: string };
