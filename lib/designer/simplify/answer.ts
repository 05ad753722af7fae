import type { SimplifyProposal } from ".";

/**
 * What `POST /api/workflows/:id/simplify` answers (client-safe types: the editor's panel reads it).
 * `evaluation` is null when the workflow has no dataset (or none was asked for): the proposals are
 * then offered unevaluated.
 */
export interface WorkflowScoreView {
  /** Mean score over the rows (a run that did not succeed scores 0). */
  score: number;
  succeeded: number;
  rows: number;
  /** Model calls and tokens of all rows' runs. */
  calls: number;
  tokens: number;
}

export type EvaluatedProposal = SimplifyProposal & {
  evaluation: null | ({ kept: boolean; reason: string } & WorkflowScoreView);
};

export interface SimplifyAnswer {
  proposals: EvaluatedProposal[];
  evaluation: null | {
    datasetId: string;
    datasetName: string;
    rows: number;
    /** Rows left out (past the per-request cap). */
    rowsSkipped: number;
    tolerance: number;
    /** Where the references came from: the dataset's rows, or the original workflow's answers. */
    reference: "dataset" | "original";
    evaluators: { kind: string; name: string }[];
    original: WorkflowScoreView;
  };
}

/** A proposal is offered (can be shown and accepted) unless the evaluation rejected it. */
export const isOffered = (p: EvaluatedProposal): boolean => p.evaluation?.kept !== false;

/** The lines the panel shows under a proposal: expected saving, then the verdict. */
export function proposalNotes(p: EvaluatedProposal, answer: Pick<SimplifyAnswer, "evaluation">): string[] {
  const notes = [`Expected saving per run: ${p.saving.calls} model call(s), ~${p.saving.tokens} prompt tokens.`];
  const e = answer.evaluation;
  if (!p.evaluation || !e) return [...notes, "Not evaluated (the workflow has no dataset)."];
  const verdict = p.evaluation.kept ? "Kept" : "Rejected";
  return [
    ...notes,
    `${verdict} on "${e.datasetName}" (${e.rows} rows): ${p.evaluation.reason}.`,
    `Measured: calls ${e.original.calls} → ${p.evaluation.calls}, tokens ${e.original.tokens} → ${p.evaluation.tokens}.`,
  ];
}
