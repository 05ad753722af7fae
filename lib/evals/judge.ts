import "server-only";
import * as z from "zod";
import { askJson } from "@/lib/llm/json-call";
import type { ModelResolver } from "@/lib/providers/resolver";
import type { EvaluatorResult, EvaluatorSpec } from "./evaluator-spec";
import { asText, pickOutput, pickReference, type CellFacts } from "./evaluators";

type JudgeSpec = Extract<EvaluatorSpec, { kind: "judge" }>;

/** The structured answer's name: the scripted model's fixtures match on it. */
export const JUDGE_SCHEMA_NAME = "evaluation_judge";

/** Longest text of one part (inputs, reference, answer) put in the judge's prompt. */
const PART_MAX = 12_000;

const clip = (s: string) =>
  s.length > PART_MAX ? `${s.slice(0, PART_MAX)}\n[… ${s.length - PART_MAX} more characters]` : s;

function schema(spec: JudgeSpec) {
  const props = {
    reasoning: { type: "string", description: "Why this score, in a few sentences, before deciding it." },
    score: { type: "integer", minimum: spec.scale.min, maximum: spec.scale.max },
  };
  return {
    loose: { type: "object", properties: props, required: ["reasoning", "score"] },
    strict: { type: "object", properties: props, required: ["reasoning", "score"], additionalProperties: false },
  };
}

/** The judge's prompt: the rubric and scale, then the case (inputs, reference when there is one) and the answer judged. */
export function judgeMessages(spec: JudgeSpec, f: CellFacts): { role: "system" | "user"; content: string }[] {
  const reference = pickReference(f.reference, spec.field);
  const parts = [
    `Rubric:\n${spec.rubric}`,
    `Inputs:\n${clip(asText(f.inputs))}`,
    ...(reference !== undefined ? [`Reference answer:\n${clip(asText(reference))}`] : []),
    `Answer to grade:\n${clip(asText(pickOutput(f.outputs, spec.field)))}`,
  ];
  return [
    {
      role: "system",
      content: `You grade one answer of an AI workflow against a rubric. Reason briefly, then give an integer score from ${spec.scale.min} (worst) to ${spec.scale.max} (best). Judge only the answer; the inputs and the reference are context.`,
    },
    { role: "user", content: parts.join("\n\n") },
  ];
}

/**
 * Scores one cell with an LLM judge on the owner's configured model (`resolve`: the spec's provider
 * and model, else the owner's default), through whichever structured-output path the provider
 * supports. The score is mapped onto 0–1 along the scale; the reasoning is kept. A run that did not
 * succeed is not sent (score 0); an answer without a valid score, or a failed call, scores nothing
 * and fails the evaluator, with the reason in `detail`.
 */
export async function judgeCell(
  spec: JudgeSpec,
  f: CellFacts,
  resolve: ModelResolver,
  signal?: AbortSignal,
): Promise<EvaluatorResult & { tokens: number }> {
  const out = (score: number | null, detail: string, extra: { reasoning?: string; tokens?: number } = {}) => ({
    name: spec.name,
    kind: "judge" as const,
    score,
    passed: score === null ? false : score >= spec.threshold,
    detail,
    ...(extra.reasoning !== undefined ? { reasoning: extra.reasoning } : {}),
    tokens: extra.tokens ?? 0,
  });
  if (f.runStatus !== "succeeded") return out(0, `not judged: the run ended ${f.runStatus}`);
  try {
    const ref =
      spec.provider || spec.model
        ? { ...(spec.provider ? { provider: spec.provider } : {}), model: spec.model ?? "" }
        : null;
    const config = await resolve(ref);
    const res = await askJson({
      config,
      name: JUDGE_SCHEMA_NAME,
      schema: schema(spec),
      messages: judgeMessages(spec, f),
      signal,
      retry: { maxAttempts: 3 },
    });
    const tokens = res.usage.promptTokens + res.usage.completionTokens;
    const answer = z.object({ reasoning: z.string().default(""), score: z.number() }).safeParse(res.data);
    if (!answer.success)
      return out(null, "the judge's answer held no score", { tokens, reasoning: res.text.slice(0, 4000) });
    const { score, reasoning } = answer.data;
    if (!Number.isInteger(score) || score < spec.scale.min || score > spec.scale.max) {
      return out(null, `the judge answered ${score}, outside the scale ${spec.scale.min}–${spec.scale.max}`, {
        tokens,
        reasoning,
      });
    }
    const normalised = (score - spec.scale.min) / (spec.scale.max - spec.scale.min);
    return out(normalised, `${score} of ${spec.scale.min}–${spec.scale.max}`, { tokens, reasoning });
  } catch (err) {
    return out(null, `the judge could not be asked: ${err instanceof Error ? err.message : String(err)}`);
  }
}
