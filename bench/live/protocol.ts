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

/** [runId, seq, created (epoch ms), handed over: committed, or given to PUBLISH (epoch ms)]. */
export type Stamp = [string, number, number, number];

export type ProducerReply =
  | { type: "ready" }
  | { type: "half" }
  | { type: "done"; total: number; stamps: Stamp[] }
  | { type: "error"; message: string };
