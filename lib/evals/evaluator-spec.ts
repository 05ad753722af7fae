/**
 * What an experiment scores its runs with: the evaluator specs, as stored on the experiment and sent
 * by the API and the experiment form. Client-safe (zod only), so the form can check a spec as typed.
 *
 * Every evaluator gives a score from 0 to 1 (or none, when it does not apply: a cost threshold
 * without a price), a `weight` in its cell's score and a pass `threshold` (the score it must reach).
 * `field` picks one of the run's outputs (default: all of them); reference values come from the
 * dataset row (its reference object's `field`, or the whole reference).
 */
import * as z from "zod";

const name = z.string().trim().min(1).max(80);
const base = {
  name,
  weight: z.number().positive().max(100).default(1),
  threshold: z.number().min(0).max(1).default(1),
  field: z.string().trim().max(100).optional(),
};

/** The largest rubric a judge accepts (characters). */
export const RUBRIC_MAX = 4000;

export const evaluatorSpecSchema = z
  .discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("exact"),
      ...base,
      expected: z.string().max(10_000).optional(),
      ignoreCase: z.boolean().default(false),
    }),
    z.strictObject({
      kind: z.literal("contains"),
      ...base,
      value: z.string().min(1).max(10_000).optional(),
      ignoreCase: z.boolean().default(true),
    }),
    z.strictObject({
      kind: z.literal("regex"),
      ...base,
      pattern: z.string().min(1).max(1000),
      flags: z
        .string()
        .regex(/^[imsu]*$/, "flags may be i, m, s, u")
        .default(""),
    }),
    z.strictObject({ kind: z.literal("json_schema"), ...base, schema: z.record(z.string(), z.unknown()) }),
    z.strictObject({
      kind: z.literal("numeric"),
      ...base,
      expected: z.number().finite().optional(),
      tolerance: z.number().min(0).finite().default(0),
    }),
    z.strictObject({
      kind: z.literal("length"),
      ...base,
      min: z.number().int().min(0).optional(),
      max: z.number().int().min(0).optional(),
    }),
    z.strictObject({ kind: z.literal("latency"), ...base, maxMs: z.number().int().positive() }),
    z.strictObject({
      kind: z.literal("cost"),
      ...base,
      maxUsd: z.number().min(0).optional(),
      maxTokens: z.number().int().positive().optional(),
    }),
    z.strictObject({
      kind: z.literal("judge"),
      ...base,
      threshold: z.number().min(0).max(1).default(0.5),
      rubric: z.string().trim().min(1).max(RUBRIC_MAX),
      scale: z
        .strictObject({ min: z.number().int().min(0).max(100), max: z.number().int().min(1).max(100) })
        .default({ min: 1, max: 5 })
        .refine((s) => s.max > s.min, "scale.max must be above scale.min"),
      /** One of the user's providers (id or name); default: the user's default model. */
      provider: z.string().trim().min(1).max(100).optional(),
      model: z.string().trim().min(1).max(200).optional(),
    }),
  ])
  .superRefine((spec, ctx) => {
    if (spec.kind === "regex") {
      try {
        new RegExp(spec.pattern, spec.flags);
      } catch (err) {
        ctx.addIssue({
          code: "custom",
          path: ["pattern"],
          message: `not a regular expression: ${(err as Error).message}`,
        });
      }
    }
    if (spec.kind === "length" && spec.min === undefined && spec.max === undefined)
      ctx.addIssue({ code: "custom", message: "a length evaluator needs min or max" });
    if (spec.kind === "length" && spec.min !== undefined && spec.max !== undefined && spec.min > spec.max)
      ctx.addIssue({ code: "custom", path: ["min"], message: "min is above max" });
    if (spec.kind === "cost" && spec.maxUsd === undefined && spec.maxTokens === undefined)
      ctx.addIssue({ code: "custom", message: "a cost evaluator needs maxUsd or maxTokens" });
  });
export type EvaluatorSpec = z.output<typeof evaluatorSpecSchema>;
export type EvaluatorKind = EvaluatorSpec["kind"];

/** An experiment's evaluators: 1 to 20, names unique (results are keyed by name). */
export const evaluatorListSchema = z
  .array(evaluatorSpecSchema)
  .min(1)
  .max(20)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((e, i) => {
      if (seen.has(e.name))
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `the name "${e.name}" is used twice` });
      seen.add(e.name);
    });
  });

/** One evaluator's verdict on one cell; `score` null = did not apply (left out of the cell's score). */
export interface EvaluatorResult {
  name: string;
  kind: EvaluatorKind;
  score: number | null;
  passed: boolean | null;
  detail: string;
  /** The judge's reasoning, as it answered. */
  reasoning?: string;
  /** A judge's tokens (prompt + completion) for this cell: the judging's own cost, apart from the run's. */
  tokens?: number;
}
