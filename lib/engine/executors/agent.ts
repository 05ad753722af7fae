import type { ChatMessage } from "../ports";
import { registryTools, runAgentLoop } from "./agent-loop";
import { chooseBranch } from "./branch";
import { agentSpec, measured, renderTask, resolveModel } from "./common";
import { createToolBinding, creationPolicy } from "./create-tool";
import { noUsage, type Executor } from "./types";

/**
 * Agent node: the agent's instructions as system message, the rendered task (+ loop feedback) as
 * user message, a tool-calling loop of up to maxTurnsPerVisit turns, then — when the node declares
 * several branches — a structured branch choice (R5). Output: the agent's final answer (text).
 * Each step builds its own messages, so parallel branches never share memory (R2).
 */
export const agentExecutor: Executor<"agent"> = (ctx) => {
  const usage = noUsage();
  return measured(ctx, usage, async () => {
    const { node, workflow } = ctx;
    const spec = agentSpec(workflow, node.agent);
    const model = resolveModel(workflow, spec.model, spec.temperature);
    const tools = await registryTools(ctx, spec.tools);
    const policy = creationPolicy(workflow, spec);
    if (policy) tools.push(createToolBinding(ctx, model, policy, tools, usage));
    const messages: ChatMessage[] = [
      { role: "system", content: spec.instructions || `You are ${spec.name}.` },
      { role: "user", content: renderTask(node.task, ctx.data) },
    ];
    const maxTurns = node.maxTurnsPerVisit ?? workflow.limits.maxTurnsPerVisit;
    const answer = await runAgentLoop(ctx, {
      model,
      messages,
      tools,
      maxTurns,
      label: spec.name,
      usage,
      ...(policy ? { durableTurns: "" } : {}),
    });
    if (node.branches.length <= 1)
      return { output: answer.content, ...(node.branches[0] ? { branch: node.branches[0].id } : {}) };
    const choice = await chooseBranch(ctx, model, answer.messages, node.branches, usage);
    ctx.emit({
      type: "step_progress",
      nodeId: node.id,
      iteration: ctx.iteration,
      message: `chose branch "${choice.branch}"`,
      detail: { branch: choice.branch, reason: choice.reason ?? null },
    });
    return { output: answer.content, branch: choice.branch };
  });
};
