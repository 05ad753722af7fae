import type { InputRequestView } from "./run-fold";

/** What the review form holds: checkbox fields as booleans, every other field as the typed text. */
export type ReviewFormValues = Record<string, string | boolean>;

/** The body of POST /api/runs/:id/answer. */
export interface AnswerBody {
  nodeId: string;
  iteration: number;
  choice: string;
  values: Record<string, unknown>;
  comment?: string;
}

export type BuiltAnswer = { ok: true; body: AnswerBody } | { ok: false; errors: Record<string, string> };

/**
 * The answer's request body from the form: numbers and JSON parsed, empty optional fields left out,
 * a required field left empty or a value that does not parse reported under its key (nothing sent).
 */
export function buildAnswer(
  step: { nodeId: string; iteration: number },
  request: Pick<InputRequestView, "fields">,
  choice: string,
  form: ReviewFormValues,
  comment = "",
): BuiltAnswer {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of request.fields) {
    const raw = form[f.key];
    if (f.type === "boolean") {
      values[f.key] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    if (text.trim() === "") {
      if (f.required) errors[f.key] = "is required";
      continue;
    }
    if (f.type === "number") {
      const n = Number(text.trim());
      if (Number.isFinite(n)) values[f.key] = n;
      else errors[f.key] = "must be a number";
    } else if (f.type === "json") {
      try {
        values[f.key] = JSON.parse(text);
      } catch (err) {
        errors[f.key] = `is not valid JSON (${err instanceof Error ? err.message : "parse error"})`;
      }
    } else {
      values[f.key] = text;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const note = comment.trim();
  return {
    ok: true,
    body: { nodeId: step.nodeId, iteration: step.iteration, choice, values, ...(note ? { comment: note } : {}) },
  };
}

/** An error answer of the route (`{error:{code,message,details}}`): its message and, for values, the messages per field. */
export function answerError(status: number, body: unknown): { message: string; fields: Record<string, string> } {
  const error =
    body && typeof body === "object" ? (body as { error?: { message?: unknown; details?: unknown } }).error : undefined;
  const message =
    typeof error?.message === "string" && error.message ? error.message : `The answer was refused (${status}).`;
  const fields: Record<string, string> = {};
  // zod's treeifyError: {errors, properties: {key: {errors: [...]}}}
  const props = (error?.details as { properties?: Record<string, { errors?: unknown }> } | null | undefined)
    ?.properties;
  if (props && typeof props === "object") {
    for (const [key, v] of Object.entries(props)) {
      const first = Array.isArray(v?.errors) ? v.errors.find((e) => typeof e === "string") : undefined;
      if (first) fields[key] = first;
    }
  }
  return { message, fields };
}

/**
 * When an unanswered review stops waiting, in words: "If nobody answers by <time>, <choice> is
 * taken." (or the step times out). Null without a timeout or a start time. `at` formats the time.
 */
export function deadlineText(
  startedAt: string | null,
  request: Pick<InputRequestView, "timeoutMs" | "timeoutChoice" | "choices">,
  at: (d: Date) => string = (d) => d.toLocaleString(),
): string | null {
  if (request.timeoutMs === undefined || startedAt === null) return null;
  const by = at(new Date(Date.parse(startedAt) + request.timeoutMs));
  const choice =
    request.timeoutChoice === undefined ? undefined : request.choices.find((c) => c.id === request.timeoutChoice);
  return choice
    ? `If nobody answers by ${by}, "${choice.label || choice.id}" is taken.`
    : `If nobody answers by ${by}, the step times out and the run fails.`;
}
