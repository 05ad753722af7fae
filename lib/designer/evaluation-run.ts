import "server-only";
import { createEvaluation, finishEvaluation, recordRows, type EvaluationView } from "@/lib/designer/evaluation-store";
import { dbPathMemory } from "@/lib/providers/path-memory";
import type { StructuredPath } from "@/lib/llm/json-call";
import type { ModelConfig } from "@/lib/llm/models";
import { createLogger } from "@/lib/logger";
import { evaluateDesigner, evaluationEntries, summariseEvaluation, type EvaluationRow } from "./evaluate";
import { llmDesignerModel } from "./llm";

const log = createLogger({ component: "designer-evaluation" });

/** What is evaluated: an endpoint and model, how it is shown, and the path (auto = found and remembered). */
export interface EvaluationTarget {
  config: ModelConfig;
  label: string;
  providerId: string | null;
  path: StructuredPath | "auto";
}

/**
 * Starts a stored evaluation for `workspaceId`: the row is created (running) before this returns; the
 * requests then run one after another, each row stored as it finishes, the summary at the end.
 * `done` settles when it is over (it never rejects: a failure is stored on the row).
 */
export async function startEvaluation(
  workspaceId: string,
  target: EvaluationTarget,
  options: {
    ids?: readonly string[];
    source: "ui" | "command";
    signal?: AbortSignal;
    onRow?: (row: EvaluationRow) => void;
  } = { source: "ui" },
): Promise<{ evaluation: EvaluationView; done: Promise<void> }> {
  const entries = evaluationEntries(options.ids);
  const evaluation = await createEvaluation(workspaceId, {
    label: target.label,
    model: target.config.model,
    path: target.path,
    providerId: target.providerId,
    total: entries.length,
    source: options.source,
  });
  const model = llmDesignerModel(target.config, { path: target.path, memory: dbPathMemory(workspaceId) });
  const done = (async () => {
    const rows: EvaluationRow[] = [];
    try {
      for await (const row of evaluateDesigner(model, entries, options.signal)) {
        rows.push(row);
        options.onRow?.(row);
        await recordRows(evaluation.id, rows);
      }
      await finishEvaluation(evaluation.id, { rows, summary: summariseEvaluation(rows) });
      log.info("designer evaluation finished", { workspaceId, id: evaluation.id, requests: rows.length });
    } catch (err) {
      log.warn("designer evaluation failed", { workspaceId, id: evaluation.id, err });
      await finishEvaluation(evaluation.id, { rows, error: (err as Error).message }).catch(() => undefined);
    }
  })();
  return { evaluation, done };
}
