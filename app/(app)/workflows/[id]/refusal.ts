import { AppError } from "@/lib/errors";

/** A form's or row's error answer. */
export type Refusal = { status: "error"; message: string; fieldErrors?: Record<string, string> };

/**
 * The answer of a workflow-page action that the service refused: the message under the field the
 * error names (`details.field`), else as the form's message. Unexpected errors are rethrown (Next's
 * error boundary shows them; their details stay in the server log).
 */
export function refusal(err: unknown): Refusal {
  if (!(err instanceof AppError) || err.code === "internal") throw err;
  const field = (err.details as { field?: string } | undefined)?.field;
  return field ? { status: "error", message: "", fieldErrors: { [field]: err.message } } : { status: "error", message: err.message };
}
