import "server-only";
import * as z from "zod";
import { AppError } from "@/lib/errors";
import { listDatasets } from "@/lib/evals/datasets";
import { createExperiment, experimentInputSchema } from "@/lib/evals/experiments";
import { getExperiment } from "@/lib/evals/results";

/**
 * Evaluations as MCP tools (docs/evaluations.md, "API and MCP"): list the owner's datasets, start an
 * experiment, read its results. Named `weft_…` so they cannot be taken for a workflow tool
 * (`run_workflow_…`) or a registry tool of the same name.
 */
export const EXPERIMENT_TOOL_NAMES = [
  "weft_list_datasets",
  "weft_start_experiment",
  "weft_experiment_results",
] as const;
type ExperimentToolName = (typeof EXPERIMENT_TOOL_NAMES)[number];

const resultsArgs = z.object({ experimentId: z.string().trim().min(1).max(100), rows: z.boolean().default(false) });

/** The tools' descriptors, as tools/list answers them. */
export function experimentTools(): {
  name: ExperimentToolName;
  description: string;
  inputSchema: { type: "object" } & Record<string, unknown>;
}[] {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: "input" }) as { type: "object" } & Record<string, unknown>;
  return [
    {
      name: "weft_list_datasets",
      description: "Lists your Weft datasets: id, name, workflow, current version and row count.",
      inputSchema: { type: "object", properties: {} },
    },
    {
      name: "weft_start_experiment",
      description:
        "Starts an experiment: saved workflow versions run over a dataset's current version, each row a run, scored by the evaluators (exact, contains, regex, json_schema, numeric, length, latency, cost, judge). Answers its id; read it with weft_experiment_results.",
      inputSchema: schema(experimentInputSchema),
    },
    {
      name: "weft_experiment_results",
      description:
        "An experiment's status, progress, aggregate per version (mean score with 95 % interval, pass rate, tokens, cost, median latency) and regressions; `rows: true` adds every row's cells.",
      inputSchema: schema(resultsArgs),
    },
  ];
}

export const isExperimentToolName = (name: string): name is ExperimentToolName =>
  (EXPERIMENT_TOOL_NAMES as readonly string[]).includes(name);

/** Calls one of the tools for the owner: its answer as JSON text, or the refusal's message as an error. */
export async function callExperimentTool(
  workspaceId: string,
  name: ExperimentToolName,
  args: Record<string, unknown>,
): Promise<{ ok: boolean; text: string }> {
  try {
    switch (name) {
      case "weft_list_datasets":
        return { ok: true, text: JSON.stringify({ datasets: await listDatasets(workspaceId) }) };
      case "weft_start_experiment": {
        const parsed = experimentInputSchema.safeParse(args);
        if (!parsed.success)
          return {
            ok: false,
            text: `Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".") || "arguments"}: ${i.message}`).join("; ")}`,
          };
        return { ok: true, text: JSON.stringify({ experiment: await createExperiment(workspaceId, parsed.data) }) };
      }
      case "weft_experiment_results": {
        const parsed = resultsArgs.safeParse(args);
        if (!parsed.success) return { ok: false, text: "Invalid arguments: experimentId is required." };
        const exp = await getExperiment(workspaceId, parsed.data.experimentId);
        return { ok: true, text: JSON.stringify({ experiment: parsed.data.rows ? exp : { ...exp, rows: undefined } }) };
      }
    }
  } catch (err) {
    if (err instanceof AppError) return { ok: false, text: err.message };
    throw err;
  }
}
