import { AppError } from "@/lib/errors";
import { checkJsonValue, jsonLimits } from "@/lib/http/json-guard";
import { jsonBoundsBreach, type JsonBounds } from "@/lib/workflow/json-bounds";

/**
 * How deep and how long the values a run is started with may be: its inputs (every trigger: the
 * API, the editor, webhooks, schedules, MCP, subflows — they all go through startRun) and a fork's
 * edited step values. The object of inputs is level 1, so a `json` input may nest 63 levels (the
 * depth is the JSON guard's, WEFT_JSON_MAX_DEPTH; 64 by default).
 * Measured without recursion (lib/workflow/json-bounds), before anything serialises or copies the
 * value: past a few thousand levels JSON.stringify and structuredClone overflow the call stack.
 */
export const RUN_VALUE_LIMITS: Readonly<JsonBounds> = Object.freeze({ maxDepth: 64, maxChars: 1_000_000 });

/**
 * Refuses a value past RUN_VALUE_LIMITS with a 400 that names the limit (`what` says which value:
 * "The run's inputs", "The edited output"), and one holding a NUL or an unpaired surrogate
 * PostgreSQL would refuse mid-insert (the JSON guard's value check, naming the path under `root`);
 * nothing has been stored when it throws.
 */
export function checkRunValue(value: unknown, what: string, root = "inputs"): void {
  const bounds = { ...RUN_VALUE_LIMITS, maxDepth: jsonLimits().maxDepth };
  const breach = jsonBoundsBreach(value, bounds);
  if (!breach) return checkJsonValue(value, bounds.maxDepth, root);
  if (breach.limit === "depth") {
    throw new AppError(
      "bad_request",
      `${what} are nested more than ${breach.max} levels deep (limit maxDepth: ${breach.max}).`,
      {
        limit: "maxDepth",
        max: breach.max,
      },
    );
  }
  throw new AppError(
    "bad_request",
    `${what} are longer than ${breach.max} characters as JSON (limit maxChars: ${breach.max}).`,
    {
      limit: "maxChars",
      max: breach.max,
    },
  );
}
