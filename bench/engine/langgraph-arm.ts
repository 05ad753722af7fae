/**
 * B1 peer arm: LangGraph.js StateGraph with @langchain/langgraph-checkpoint-postgres, same shapes and
 * the same instant fake model call per node as our arm. Durability "sync" (checkpoint committed before
 * the next step) and "async" are both measured.
 */
import { Annotation, END, Send, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { ChatOpenAI } from "@langchain/openai";
import pg from "pg";
import { branchChoiceSchema } from "@/lib/engine/executors/branch";
import { jsonSchemaOf } from "@/lib/llm/invoke";
import { LOOP_ITERATIONS, MAP_CONCURRENCY, MAP_ITEMS, type ShapeName } from "./shapes";

export type Durability = "sync" | "async";

const State = Annotation.Root({
  count: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  iteration: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  verdict: Annotation<string>({ reducer: (_a, b) => b, default: () => "" }),
});
type S = typeof State.State;

/** Counts statements sent through a pg.Pool (PostgresSaver uses pool.query and pooled clients). */
export function countingPool(connectionString: string): { pool: pg.Pool; statements: () => number } {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // pool.end() resolves once its clients are told to end, before their connections have closed: the
  // bench then drops its database (WITH FORCE), which terminates those (57P01). Expected then; an
  // 'error' event without a listener would end the process.
  pool.on("error", (err) => {
    if ((err as { code?: string }).code !== "57P01")
      process.stderr.write(`langgraph arm: an idle connection failed: ${err.message}\n`);
  });
  let n = 0;
  const origQuery = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
    n++;
    return origQuery(...a);
  };
  pool.on("connect", (client) => {
    const q = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
      n++;
      return q(...a);
    };
  });
  return { pool, statements: () => n };
}

/** A node's model call: the prompt and the graph run's abort signal (LangGraph passes one to every node). */
export type CallModel = (prompt: string, runSignal?: AbortSignal) => Promise<string>;
/** The evaluator's call: a structured branch choice among `branches`, like our LLM-judged router's. */
export type ChooseBranch = (prompt: string, branches: string[], runSignal?: AbortSignal) => Promise<string>;
/** Both calls a graph's nodes make. */
export interface ModelCalls {
  call: CallModel;
  choose: ChooseBranch;
}

/**
 * The signal to hand ChatOpenAI for one call: a per-call child of the run's signal. openai 6.x adds
 * an abort listener to the caller's signal per request and never removes it, so passing the run's
 * signal itself (what LangChain does by default inside a graph) leaks one listener per node call.
 */
export const perCallSignal = (runSignal?: AbortSignal): { signal?: AbortSignal } =>
  runSignal ? { signal: AbortSignal.any([runSignal]) } : {};

type NodeConfig = { signal?: AbortSignal } | undefined;

/**
 * The two calls over one ChatOpenAI client. `choose` asks the way lib/llm `structured` does for our
 * router (method "tool"): one forced `choose_branch` tool call whose arguments are validated by zod.
 */
export function modelCalls(chat: ChatOpenAI): ModelCalls {
  return {
    call: async (prompt, runSignal) => String((await chat.invoke(prompt, perCallSignal(runSignal))).content),
    choose: async (prompt, branches, runSignal) => {
      // the very schema our router asks with, and lib/llm's conversion of it (both built once)
      const schema = branchChoiceSchema(branches as [string, ...string[]]);
      const tool = {
        type: "function",
        function: { name: "choose_branch", description: "Choose the outcome", parameters: jsonSchemaOf(schema) },
      };
      const res = await chat.invoke(prompt, {
        ...perCallSignal(runSignal),
        tools: [tool],
        tool_choice: { type: "function", function: { name: "choose_branch" } },
      });
      return schema.parse(res.tool_calls?.[0]?.args).branch;
    },
  };
}

/**
 * Builds the LangGraph graph of a shape; every node awaits one model call (the instant fake model):
 * a plain one, or for the loop's evaluator the same structured branch choice our router makes,
 * routed on its answer (capped at LOOP_ITERATIONS, like our loop edge).
 */
export function buildGraph(shape: ShapeName, { call: callModel, choose }: ModelCalls) {
  const step = (name: string) => async (s: S, config?: NodeConfig) => {
    await callModel(`${name} ${s.count}`, config?.signal);
    return { count: 1 };
  };
  switch (shape) {
    case "chain20": {
      const g = new StateGraph(State);
      for (let i = 1; i <= 20; i++) g.addNode(`n${i}`, step(`n${i}`));
      const b = g as unknown as { addEdge(a: string, b: string): void };
      b.addEdge(START, "n1");
      for (let i = 1; i < 20; i++) b.addEdge(`n${i}`, `n${i + 1}`);
      b.addEdge("n20", END);
      return g;
    }
    case "fanout8": {
      const g = new StateGraph(State);
      const b = g as unknown as {
        addNode(n: string, f: unknown): void;
        addEdge(a: string | string[], b: string): void;
      };
      b.addNode("split", step("split"));
      const workers = Array.from({ length: 8 }, (_, i) => `w${i + 1}`);
      for (const w of workers) b.addNode(w, step(w));
      b.addNode("join", step("join"));
      b.addEdge(START, "split");
      for (const w of workers) b.addEdge("split", w);
      b.addEdge(workers, "join");
      b.addEdge("join", END);
      return g;
    }
    case "map20": {
      // LangGraph's map: a conditional edge answering one Send per item (run with maxConcurrency, below)
      const g = new StateGraph(State);
      const b = g as unknown as {
        addNode(n: string, f: unknown): void;
        addEdge(a: string, b: string): void;
        addConditionalEdges(a: string, f: (s: S) => Send[]): void;
      };
      b.addNode("item", step("item"));
      b.addConditionalEdges(START, () =>
        Array.from({ length: MAP_ITEMS }, (_, i) => new Send("item", { count: 0, iteration: i + 1, verdict: "" })),
      );
      b.addEdge("item", END);
      return g;
    }
    case "loop5": {
      const g = new StateGraph(State);
      const b = g as unknown as {
        addNode(n: string, f: unknown): void;
        addEdge(a: string, b: string): void;
        addConditionalEdges(a: string, f: (s: S) => string, m: Record<string, string>): void;
      };
      b.addNode("generate", step("generate"));
      b.addNode("evaluate", async (s: S, config?: NodeConfig) => {
        const verdict = await choose(`[[b1-eval]] Judge ${s.iteration}`, ["approved", "revise"], config?.signal);
        return { count: 1, iteration: s.iteration + 1, verdict };
      });
      b.addEdge(START, "generate");
      b.addEdge("generate", "evaluate");
      b.addConditionalEdges(
        "evaluate",
        (s) => (s.verdict === "approved" || s.iteration >= LOOP_ITERATIONS ? "approved" : "revise"),
        {
          approved: END,
          revise: "generate",
        },
      );
      return g;
    }
  }
}

/** A LangGraph arm: runOnce(shape, durability), statements(), close(). */
export type LangGraphArm = Awaited<ReturnType<typeof langGraphArm>>;

/** A ready-to-run LangGraph arm on one database, its nodes making `calls`; `close()` ends its pool. */
export async function langGraphArm(connectionString: string, calls: ModelCalls) {
  const { pool, statements } = countingPool(connectionString);
  const saver = new PostgresSaver(pool);
  await saver.setup();
  const setup = statements(); // the saver's migrations are not the graph's statements
  const compiled = new Map<ShapeName, ReturnType<ReturnType<typeof buildGraph>["compile"]>>();
  let thread = 0;
  return {
    statements: () => statements() - setup,
    /** Runs one instance of a shape to completion; returns its wall time in ms. */
    async runOnce(shape: ShapeName, durability: Durability): Promise<{ ms: number; steps: number }> {
      let graph = compiled.get(shape);
      if (!graph) {
        graph = buildGraph(shape, calls).compile({ checkpointer: saver });
        compiled.set(shape, graph);
      }
      const t0 = performance.now();
      const out = (await graph.invoke(
        { count: 0, iteration: 0, verdict: "" },
        {
          configurable: { thread_id: `b1-${process.pid}-${++thread}` },
          durability,
          recursionLimit: 100,
          ...(shape === "map20" ? { maxConcurrency: MAP_CONCURRENCY } : {}),
        },
      )) as S;
      return { ms: performance.now() - t0, steps: out.count };
    },
    close: () => pool.end(),
  };
}
