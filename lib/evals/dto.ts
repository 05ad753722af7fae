/**
 * The experiment shapes that cross the server/client line (the results page, the API). Client-safe:
 * no imports but types, so components may import it (eslint zone).
 */
import type { EvaluatorResult } from "./evaluator-spec";
import type { VariantAggregate } from "./stats";

/** What one column of an experiment ran. */
export interface VariantView {
  workflowId: string;
  version: number;
  label: string;
}

/** One dataset row on one variant. */
export interface CellView {
  id: string;
  variant: number;
  status: "pending" | "running" | "scored" | "cancelled";
  runId: string | null;
  runStatus: string | null;
  score: number | null;
  passed: boolean | null;
  /** The run's tokens (what the workflow spent). */
  tokens: number;
  /** The judges' tokens for this cell (what scoring it spent). */
  judgeTokens: number;
  costUsd: number | null;
  latencyMs: number | null;
  error: string | null;
  results: EvaluatorResult[];
  /** Scored below the first variant's cell of its row, or failed where it passed. */
  regression: boolean;
}

/** One dataset row with its cells, one per variant (in variant order). */
export interface ResultRowView {
  rowId: string;
  ordinal: number;
  inputs: Record<string, unknown>;
  reference: unknown;
  tags: string[];
  cells: (CellView | null)[];
}

/** An experiment as its results page and the API show it. */
export interface ExperimentView {
  id: string;
  name: string;
  status: "queued" | "running" | "succeeded" | "failed" | "cancelled";
  cancelRequested: boolean;
  error: string | null;
  datasetId: string;
  datasetName: string;
  datasetVersion: number;
  concurrency: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  variants: VariantView[];
  evaluators: { name: string; kind: string; weight: number; threshold: number }[];
  progress: { total: number; pending: number; running: number; scored: number; cancelled: number };
  aggregates: VariantAggregate[];
  regressions: number;
  rows: ResultRowView[];
}

/** An experiment in a list. */
export interface ExperimentSummary {
  id: string;
  name: string;
  status: ExperimentView["status"];
  datasetName: string;
  variants: string[];
  createdAt: string;
  progress: ExperimentView["progress"];
}

/** One bad row of an import (as the import form lists it). */
export interface RowErrorView {
  row: number;
  line: number;
  message: string;
}

/** What the dataset and experiment forms' actions answer. */
export type EvalActionResult =
  | { status: "idle" }
  | { status: "ok"; message: string }
  | { status: "error"; message: string; rowErrors?: RowErrorView[]; errorCount?: number };
