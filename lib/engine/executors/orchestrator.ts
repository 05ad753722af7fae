import type { AgentSpec } from "@/lib/workflow/schema";
import { registryTools, runAgentLoop, type ToolBinding } from "./agent-loop";
import { agentSpec, measured, renderTask, resolveModel } from "./common";
import { StepError, StepLimitError } from "../errors";
import { noUsage, type Executor, type StepContext, type StepEnv } from "./types";
import type { TokenUsage } from "../events";

/** Name of the handoff tool for a worker agent. */
export const handoffToolName = (workerKey: string): string => `handoff_to_${workerKey}`;

/**
 * Orchestrator node: an agent with one handoff tool per worker. Calling it runs the worker (its own
 * instructions, tools and fresh messages) on the given task and hands the worker's answer back as
 * the tool result. Each handoff and hand-back is a `handoff` event; at most `maxHandoffs` per visit
 * (further calls are answered with an error telling the orchestrator to conclude).
 */
export const orchestratorExecutor: Executor<"orchestrator"> = (ctx) => {
  const usage = noUsage();
  return measured(ctx, usage, async () => {
    const { node, workflow } = ctx;
    const lead = agentSpec(workflow, node.agent);
    const workers = node.workers.map((key) => agentSpec(workflow, key));
    if (workers.length === 0) throw new StepError("the orchestrator has no workers");
    const counter = { count: 0 };
    const tools = [
      ...(await registryTools(ctx, lead.tools)),
      ...workers.map((w) => handoffTool(ctx, w, counter, usage)),
    ];
    const roster = workers
      .map((w) => `- ${handoffToolName(w.key)}: ${w.name}${w.description ? ` — ${w.description}` : ""}`)
      .join("\n");
    const answer = await runAgentLoop(ctx, {
      model: resolveModel(workflow, lead.model, lead.temperature),
      messages: [
        {
          role: "system",
          content: `${lead.instructions || `You are ${lead.name}.`}\n\nYou can hand sub-tasks to these workers:\n${roster}`,
        },
        { role: "user", content: renderTask(node.task, ctx.data) },
      ],
      tools,
      maxTurns: workflow.limits.maxTurnsPerVisit,
      label: lead.name,
      usage,
    });
    return { output: answer.content, branch: "done" };
  });
};

function handoffTool(
  ctx: StepContext<"orchestrator">,
  worker: AgentSpec,
  counter: { count: number },
  usage: TokenUsage,
): ToolBinding {
  const base = { nodeId: ctx.node.id, iteration: ctx.iteration, worker: worker.key } as const;
  return {
    spec: {
      name: handoffToolName(worker.key),
      description: `Hand a sub-task to ${worker.name}${worker.description ? ` (${worker.description})` : ""}; returns their answer.`,
      parameters: {
        type: "object",
        properties: { task: { type: "string", description: "What the worker should do" } },
        required: ["task"],
      },
    },
    invoke: async (args) => {
      if (counter.count >= ctx.node.maxHandoffs) {
        return `Error: the handoff budget (maxHandoffs=${ctx.node.maxHandoffs}) is used up. Give your final answer now.`;
      }
      const ordinal = (counter.count += 1);
      const task = typeof args.task === "string" && args.task.trim() ? args.task : JSON.stringify(args);
      ctx.emit({ type: "handoff", ...base, phase: "handoff", task });
      try {
        const result = await runWorker(ctx, worker, task, usage, handoffScope(ctx, worker, ordinal));
        ctx.emit({ type: "handoff", ...base, phase: "handback", result });
        return result;
      } catch (err) {
        if (!(err instanceof StepLimitError || err instanceof StepError)) throw err;
        ctx.emit({ type: "handoff", ...base, phase: "handback", error: err.message });
        return `Error from ${worker.name}: ${err.message}`;
      }
    },
  };
}

/**
 * The effect-key scope of a worker's tool calls: the handoff's ordinal in the step and the worker
 * (each worker loop counts its turns from 1, so without it two handoffs' calls on the same turn
 * shared a key and the second effect was answered from the ledger instead of made). A step started
 * before scoped keys existed (its input has no `effectKeys`) keeps the unscoped keys, so a
 * re-dispatched step finds the effects it recorded then.
 */
function handoffScope(ctx: StepEnv, worker: AgentSpec, ordinal: number): string | undefined {
  return ctx.input.effectKeys === 2 ? `h${ordinal}.${worker.key}` : undefined;
}

async function runWorker(
  ctx: StepEnv,
  worker: AgentSpec,
  task: string,
  usage: TokenUsage,
  scope: string | undefined,
): Promise<string> {
  const answer = await runAgentLoop(ctx, {
    model: resolveModel(ctx.workflow, worker.model, worker.temperature),
    messages: [
      { role: "system", content: worker.instructions || `You are ${worker.name}.` },
      { role: "user", content: task },
    ],
    tools: await registryTools(ctx, worker.tools, scope),
    maxTurns: ctx.workflow.limits.maxTurnsPerVisit,
    label: `worker ${worker.name}`,
    usage,
  });
  return answer.content;
}
