import * as z from "zod";
import type { Branch, ModelRef } from "@/lib/workflow/schema";
import type { TokenUsage } from "../events";
import type { ChatMessage } from "../ports";
import { StepError } from "../errors";
import { addUsage, type StepEnv } from "./types";

/** Format retries after the first structured answer (R5). */
export const BRANCH_FORMAT_RETRIES = 2;

const makeChoiceSchema = (ids: [string, ...string[]]) =>
  z.object({ branch: z.enum(ids), reason: z.string().optional() });
/** Schemas by branch ids (a router asks with the same schema at every visit; bounded, oldest dropped). */
const choiceSchemas = new Map<string, ReturnType<typeof makeChoiceSchema>>();

/** The structured answer of a branch choice: one declared id (+ an optional reason). */
export function branchChoiceSchema(ids: [string, ...string[]]) {
  const key = JSON.stringify(ids);
  let schema = choiceSchemas.get(key);
  if (!schema) {
    if (choiceSchemas.size >= 256) choiceSchemas.delete(choiceSchemas.keys().next().value!);
    choiceSchemas.set(key, (schema = makeChoiceSchema(ids)));
  }
  return schema;
}

/** The instruction listing the branches and their conditions. */
export function branchPrompt(branches: Branch[]): string {
  const lines = branches.map(
    (b) => `- "${b.id}"${b.label ? ` (${b.label})` : ""}: ${b.condition || "no condition given"}`,
  );
  return `Choose exactly one outcome by its id:\n${lines.join("\n")}\nAnswer with the chosen id in "branch".`;
}

/**
 * R5: picks a branch through a structured call whose enum is the declared ids. An answer without a
 * valid id is retried up to BRANCH_FORMAT_RETRIES times with the error fed back; then the step
 * fails. There is no fallback to the first branch.
 */
export async function chooseBranch(
  ctx: StepEnv,
  model: ModelRef | null,
  messages: ChatMessage[],
  branches: Branch[],
  usage: TokenUsage,
): Promise<{ branch: string; reason?: string }> {
  const ids = branches.map((b) => b.id);
  if (ids.length === 0) throw new StepError("the node declares no branches to choose from");
  const schema = branchChoiceSchema(ids as [string, ...string[]]);
  const convo: ChatMessage[] = [...messages, { role: "user", content: branchPrompt(branches) }];
  let lastError = "";
  for (let attempt = 0; attempt <= BRANCH_FORMAT_RETRIES; attempt++) {
    const live = ctx.live.call();
    const res = await ctx.model.structured({
      model,
      messages: convo,
      schema,
      name: "choose_branch",
      description: "Choose the outcome",
      signal: ctx.signal,
      onDelta: live.onDelta,
    });
    addUsage(usage, res.usage);
    ctx.reportUsage(res.model, res.usage, res.latencyMs);
    const checked = res.ok ? schema.safeParse(res.value) : undefined;
    if (checked?.success)
      return { branch: checked.data.branch, ...(checked.data.reason ? { reason: checked.data.reason } : {}) };
    lastError = res.ok
      ? `"${String((res.value as { branch?: unknown })?.branch)}" is not one of ${ids.join(", ")}`
      : res.error;
    // the model's answer goes in `detail` (content: a share link without content drops it)
    ctx.emit({
      type: "step_progress",
      nodeId: ctx.node.id,
      iteration: ctx.iteration,
      message: `invalid branch choice (${attempt + 1}/${BRANCH_FORMAT_RETRIES + 1})`,
      detail: { error: lastError },
    });
    convo.push(
      { role: "assistant", content: res.ok ? JSON.stringify(res.value) : res.raw },
      {
        role: "user",
        content: `That answer is invalid: ${lastError}. Answer again with "branch" set to exactly one of: ${ids.join(", ")}.`,
      },
    );
  }
  throw new StepError(
    `no valid branch after ${BRANCH_FORMAT_RETRIES + 1} structured answers (declared: ${ids.join(", ")}); last error: ${lastError}`,
    "invalid_output",
  );
}
