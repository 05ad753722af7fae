/**
 * The deterministic evaluators: pure functions of a finished run's facts and its dataset row's
 * reference. The judge (judge.ts) is the one that calls a model.
 */
import vm from "node:vm";
import * as z from "zod";
import { deepEqual } from "@/lib/workflow/equal";
import type { EvaluatorResult, EvaluatorSpec } from "./evaluator-spec";

/** What evaluators see of one cell: its run's outputs and measures, and its row's reference. */
export interface CellFacts {
  inputs: unknown;
  outputs: unknown;
  reference: unknown;
  runStatus: string;
  latencyMs: number | null;
  tokens: number;
  /** Estimated from the owner's price table; null when no model used has a price. */
  costUsd: number | null;
}

type Deterministic = Exclude<EvaluatorSpec, { kind: "judge" }>;
type Verdict = { score: number | null; detail: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value an evaluator looks at: one output (`field`), or every output; a lone output stands for itself. */
export function pickOutput(outputs: unknown, field: string | undefined): unknown {
  if (field) return isRecord(outputs) ? outputs[field] : undefined;
  if (isRecord(outputs)) {
    const values = Object.values(outputs);
    if (values.length === 1) return values[0];
  }
  return outputs;
}

/** The reference for `field`: the reference object's value of that name, else a plain reference as it is. */
export function pickReference(reference: unknown, field: string | undefined): unknown {
  if (reference === null || reference === undefined) return undefined;
  if (isRecord(reference)) return field && field in reference ? reference[field] : pickOutput(reference, undefined);
  return reference;
}

/** A value as text: strings as they are, nothing as "", anything else as JSON. */
export function asText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v);
}

/** The longest text a regex evaluator reads (a user's pattern on a huge output could take long). */
const REGEX_TEXT_MAX = 100_000;
/** How long a user's pattern may run on one output: a catastrophic one must not stall the worker. */
export const REGEX_TIME_MS = 100;

/**
 * A user's pattern tested on one output, in a V8 context with a time limit: a pattern that
 * backtracks catastrophically (`^(a+)+$` on a long run of a's) is stopped and gives no verdict
 * instead of blocking the process that scores every experiment.
 */
function regex(spec: Extract<Deterministic, { kind: "regex" }>, actual: unknown): Verdict {
  const text = asText(actual).slice(0, REGEX_TEXT_MAX);
  let ok: boolean;
  try {
    ok = vm.runInNewContext(
      "new RegExp(pattern, flags).test(text)",
      { pattern: spec.pattern, flags: spec.flags, text },
      {
        timeout: REGEX_TIME_MS,
      },
    ) as boolean;
  } catch {
    return {
      score: null,
      detail: `/${spec.pattern}/ ran longer than ${REGEX_TIME_MS} ms on this output and was stopped`,
    };
  }
  return pass(ok, `matches /${spec.pattern}/`, `does not match /${spec.pattern}/`);
}

const clip = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const pass = (ok: boolean, yes: string, no: string): Verdict => ({ score: ok ? 1 : 0, detail: ok ? yes : no });
const fold = (s: string, ignoreCase: boolean) => (ignoreCase ? s.trim().toLowerCase() : s.trim());

function exact(spec: Extract<Deterministic, { kind: "exact" }>, actual: unknown, ref: unknown): Verdict {
  if (spec.expected === undefined && ref === undefined) return { score: null, detail: "no reference to compare with" };
  if (spec.expected !== undefined || typeof ref === "string" || typeof actual === "string") {
    const want = spec.expected ?? asText(ref);
    return pass(
      fold(asText(actual), spec.ignoreCase) === fold(want, spec.ignoreCase),
      "equal",
      `expected "${clip(want)}", got "${clip(asText(actual))}"`,
    );
  }
  return pass(deepEqual(actual, ref), "equal", `expected ${clip(asText(ref))}, got ${clip(asText(actual))}`);
}

function contains(spec: Extract<Deterministic, { kind: "contains" }>, actual: unknown, ref: unknown): Verdict {
  const want = spec.value ?? (ref === undefined ? undefined : asText(ref));
  if (!want) return { score: null, detail: "no value to look for" };
  const norm = (s: string) => (spec.ignoreCase ? s.toLowerCase() : s);
  return pass(
    norm(asText(actual)).includes(norm(want)),
    `contains "${clip(want, 40)}"`,
    `does not contain "${clip(want, 40)}"`,
  );
}

const schemas = new WeakMap<object, z.ZodType | Error>();
function compiled(schema: Record<string, unknown>): z.ZodType | Error {
  let hit = schemas.get(schema);
  if (!hit) {
    try {
      hit = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (err) {
      hit = err instanceof Error ? err : new Error(String(err));
    }
    schemas.set(schema, hit);
  }
  return hit;
}

function jsonSchema(spec: Extract<Deterministic, { kind: "json_schema" }>, actual: unknown): Verdict {
  const schema = compiled(spec.schema);
  if (schema instanceof Error) return { score: 0, detail: `the schema cannot be used: ${schema.message}` };
  let value = actual;
  if (typeof actual === "string") {
    try {
      value = JSON.parse(actual);
    } catch {
      return { score: 0, detail: "not JSON" };
    }
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { score: 1, detail: "valid" };
  const issue = parsed.error.issues[0];
  return {
    score: 0,
    detail: `invalid${issue?.path.length ? ` at ${issue.path.join(".")}` : ""}: ${issue?.message ?? "does not match"}`,
  };
}

const asNumber = (v: unknown): number | undefined => {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
};

function numeric(spec: Extract<Deterministic, { kind: "numeric" }>, actual: unknown, ref: unknown): Verdict {
  const want = spec.expected ?? asNumber(ref);
  if (want === undefined) return { score: null, detail: "no number to compare with" };
  const got = asNumber(actual);
  if (got === undefined) return { score: 0, detail: `not a number: "${clip(asText(actual), 40)}"` };
  return pass(
    Math.abs(got - want) <= spec.tolerance,
    `${got} is within ${spec.tolerance} of ${want}`,
    `${got} is not within ${spec.tolerance} of ${want}`,
  );
}

function length(spec: Extract<Deterministic, { kind: "length" }>, actual: unknown): Verdict {
  const n = [...asText(actual)].length;
  const ok = (spec.min === undefined || n >= spec.min) && (spec.max === undefined || n <= spec.max);
  const bounds = `${spec.min ?? 0}–${spec.max ?? "∞"}`;
  return pass(ok, `${n} characters (${bounds})`, `${n} characters, outside ${bounds}`);
}

function cost(spec: Extract<Deterministic, { kind: "cost" }>, f: CellFacts): Verdict {
  const parts: boolean[] = [];
  const notes: string[] = [];
  if (spec.maxTokens !== undefined) {
    parts.push(f.tokens <= spec.maxTokens);
    notes.push(`${f.tokens} tokens (≤ ${spec.maxTokens})`);
  }
  if (spec.maxUsd !== undefined && f.costUsd !== null) {
    parts.push(f.costUsd <= spec.maxUsd);
    notes.push(`$${f.costUsd.toFixed(6)} (≤ $${spec.maxUsd})`);
  }
  if (!parts.length) return { score: null, detail: "no price known for the models used" };
  return { score: parts.every(Boolean) ? 1 : 0, detail: notes.join(", ") };
}

/** Scores one cell with one deterministic evaluator. */
export function evaluateDeterministic(spec: Deterministic, f: CellFacts): EvaluatorResult {
  const actual = pickOutput(f.outputs, spec.field);
  const ref = pickReference(f.reference, spec.field);
  let v: Verdict;
  switch (spec.kind) {
    case "exact":
      v = exact(spec, actual, ref);
      break;
    case "contains":
      v = contains(spec, actual, ref);
      break;
    case "regex":
      v = regex(spec, actual);
      break;
    case "json_schema":
      v = jsonSchema(spec, actual);
      break;
    case "numeric":
      v = numeric(spec, actual, ref);
      break;
    case "length":
      v = length(spec, actual);
      break;
    case "latency":
      v =
        f.latencyMs === null
          ? { score: null, detail: "the run did not finish" }
          : pass(
              f.latencyMs <= spec.maxMs,
              `${f.latencyMs} ms (≤ ${spec.maxMs})`,
              `${f.latencyMs} ms, over ${spec.maxMs}`,
            );
      break;
    case "cost":
      v = cost(spec, f);
      break;
  }
  return {
    name: spec.name,
    kind: spec.kind,
    score: v.score,
    passed: v.score === null ? null : v.score >= spec.threshold,
    detail: v.detail,
  };
}

/**
 * A cell's score and verdict from its evaluators' results: the weighted mean of the scores that
 * apply, and passed when the run succeeded and every evaluator that scored passed (null when none did).
 */
export function combineResults(
  specs: readonly EvaluatorSpec[],
  results: readonly EvaluatorResult[],
  runStatus: string,
): { score: number | null; passed: boolean | null } {
  let sum = 0;
  let weights = 0;
  for (const r of results) {
    if (r.score === null) continue;
    const w = specs.find((s) => s.name === r.name)?.weight ?? 1;
    sum += w * r.score;
    weights += w;
  }
  if (weights === 0) return { score: null, passed: runStatus === "succeeded" ? null : false };
  return { score: sum / weights, passed: runStatus === "succeeded" && results.every((r) => r.passed !== false) };
}
