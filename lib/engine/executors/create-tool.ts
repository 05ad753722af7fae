import type { AgentSpec, ModelRef, ToolRef, Workflow } from "@/lib/workflow/schema";
import { AwaitingApproval } from "../errors";
import type { InputRequest, TokenUsage } from "../events";
import type { PendingTool, ToolApprovalPolicy, ToolCreation } from "../ports";
import { bindTool, type ToolBinding } from "./agent-loop";
import { effectKey } from "./common";
import { addUsage, type StepEnv } from "./types";

/** The built-in capability an agent calls to write a tool it lacks (reserved name). */
export const CREATE_TOOL = "create_tool";

/** How tools an agent writes are approved, or null when it may not write any (workflow toolCreation, agent createTools). */
export function creationPolicy(workflow: Workflow, agent: AgentSpec): ToolApprovalPolicy | null {
  if (workflow.toolCreation) return workflow.toolCreation;
  return agent.createTools ? "ask" : null;
}

/** What a settled create_tool call answered, recorded so a replay of the step answers the same. */
interface Settled {
  content: string;
  ref?: ToolRef;
}

const SPEC = {
  name: CREATE_TOOL,
  description:
    "Write a new tool when none of your tools can do a step of the task: describe what it must do, its input and its output, with an example. An existing tool that does it is reused. The tool may need its owner's approval before you can call it.",
  parameters: {
    type: "object",
    properties: {
      request: {
        type: "string",
        description: "What the tool must do: its input, its output and one example.",
      },
    },
    required: ["request"],
  },
};

/**
 * The `create_tool` binding of an agent loop. A call runs the tool creation loop of the tools port
 * (reuse a similar approved tool, else write, test and fix it, durably per round), then, by
 * `policy`: a reused or automatically approved tool joins `tools` at once; a tool waiting for
 * approval makes the step wait (AwaitingApproval) with its code and tests, and the step's
 * continuation reads the owner's answer (`input.approval`): approved → the tool joins `tools`,
 * rejected → the rejection is the call's answer. Every settled call is recorded in the step memo, so
 * replaying the step (after a crash or the approval) answers it again without a second creation.
 */
export function createToolBinding(
  ctx: StepEnv,
  model: ModelRef | null,
  policy: ToolApprovalPolicy,
  tools: ToolBinding[],
  stepUsage: TokenUsage,
  scope?: string,
): ToolBinding {
  // the owner's answer belongs to the first creation still open when the step continues
  let answer = ctx.input.approval;
  const join = async (ref: ToolRef) => {
    const d = await ctx.tools.resolve(ref);
    if (!d) return false;
    const bound = bindTool(ctx, ref, d, scope);
    const at = tools.findIndex((t) => t.spec.name === d.name);
    if (at >= 0) tools[at] = bound;
    else tools.push(bound);
    return true;
  };
  return {
    spec: SPEC,
    async invoke(args, callKey) {
      const key = effectKey(ctx, ...(scope ? [scope] : []), callKey, "create");
      const recorded = (await ctx.memo.get(key)) as Settled | undefined;
      if (recorded) {
        if (recorded.ref) await join(recorded.ref);
        return recorded.content;
      }
      const settle = async (settled: Settled) => {
        await ctx.memo.put(key, ctx.runId, settled);
        return settled.content;
      };
      const request = typeof args.request === "string" ? args.request.trim() : "";
      if (!request) return "Error: say in `request` what the tool must do.";
      if (!ctx.tools.creator) return "Error: tools cannot be written here.";
      // a tool written before the step waited for its approval is not written again
      const waited = (await ctx.memo.get(`${key}.pending`)) as ToolCreation | undefined;
      const outcome =
        waited ??
        (await ctx.tools.creator.create({
          request,
          key,
          runId: ctx.runId,
          nodeId: ctx.node.id,
          model,
          policy,
          signal: ctx.signal,
          onUsage: (m, usage, latencyMs) => {
            addUsage(stepUsage, usage);
            ctx.reportUsage(m, usage, latencyMs);
          },
          onProgress: (message) =>
            ctx.emit({ type: "step_progress", nodeId: ctx.node.id, iteration: ctx.iteration, message }),
        }));
      if (!waited) progress(ctx, outcome);
      if (outcome.status === "failed")
        return settle({ content: `Error: the tool could not be written: ${outcome.error}` });
      if (outcome.status === "reused" || outcome.status === "approved") {
        const ref = outcome.ref;
        if (!(await join(ref))) return settle({ content: `Error: tool "${ref.name}" cannot run.` });
        return settle({ content: readyText(outcome), ref });
      }
      const ref = { name: outcome.tool.name, version: outcome.tool.version };
      if (await join(ref))
        return settle({ content: `Tool "${ref.name}" was approved by its owner. Call it now.`, ref });
      const given = answer;
      answer = undefined;
      if (given?.choice === "reject")
        return settle({
          content: `The owner rejected tool "${ref.name}"${given.comment ? `: ${given.comment}` : ""}. Do the task without it.`,
        });
      if (given) return settle({ content: `Error: tool "${ref.name}" was not approved to run.` });
      await ctx.memo.put(`${key}.pending`, ctx.runId, outcome);
      throw new AwaitingApproval(approvalRequest(outcome.tool, outcome.rounds));
    },
  };
}

function readyText(outcome: Extract<ToolCreation, { status: "reused" | "approved" }>): string {
  if (outcome.status === "reused")
    return `A tool that does this exists: "${outcome.ref.name}" (similarity ${outcome.similarity.toFixed(2)}). Call it now.`;
  const passed = outcome.tool.tests.filter((t) => t.passed).length;
  return `Tool "${outcome.ref.name}" was written (${outcome.rounds} round(s), ${passed} test(s) passed) and approved automatically: it only computes. Call it now.`;
}

function progress(ctx: StepEnv, outcome: ToolCreation): void {
  const message =
    outcome.status === "reused"
      ? `create_tool: reused "${outcome.ref.name}" (similarity ${outcome.similarity.toFixed(2)})`
      : outcome.status === "approved"
        ? `create_tool: wrote "${outcome.tool.name}" in ${outcome.rounds} round(s), approved automatically`
        : outcome.status === "pending"
          ? `create_tool: wrote "${outcome.tool.name}" in ${outcome.rounds} round(s); waiting for its approval`
          : `create_tool: failed after ${outcome.rounds} round(s): ${outcome.error}`;
  ctx.emit({ type: "step_progress", nodeId: ctx.node.id, iteration: ctx.iteration, message });
}

/** The review a waiting step shows: approve runs this exact code (its hash), reject answers the agent with the reason. */
export function approvalRequest(tool: PendingTool, rounds: number): InputRequest {
  const network = tool.allowedDomains.length ? ` It asks for network access to ${tool.allowedDomains.join(", ")}.` : "";
  return {
    prompt: `The agent wrote the tool "${tool.name}": ${tool.description}${network} Approve this code to let the run use it, or reject it.`,
    choices: [
      { id: "approve", label: "Approve" },
      { id: "reject", label: "Reject" },
    ],
    fields: [],
    tool: {
      name: tool.name,
      description: tool.description,
      versionId: tool.versionId,
      version: tool.version,
      codeHash: tool.codeHash,
      code: tool.code,
      tests: tool.tests,
      allowedDomains: tool.allowedDomains,
      rounds,
    },
  };
}
