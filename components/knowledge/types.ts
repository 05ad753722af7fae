import type { SearchHitView } from "@/lib/kb/types";

/**
 * Plain, serialisable results the knowledge pages' actions and upload endpoint hand to their client
 * components; the collection, document and search-hit shapes are lib/kb/types.
 */

export type ActionResult =
  | { status: "idle" }
  | { status: "ok"; message: string }
  | { status: "error"; message: string; fieldErrors?: { name?: string; description?: string } };

export type SearchResult = { status: "ok"; hits: SearchHitView[]; ms: number } | { status: "error"; message: string };

/** A source an answer was given (S1…), as the ask panel shows it. */
export interface AskSourceView {
  label: string;
  chunkId: string;
  documentName: string;
  collectionName: string;
  page: number | null;
  heading: string | null;
  text: string;
}

export type AskResult =
  | { status: "ok"; answer: string; citations: AskSourceView[]; sources: AskSourceView[]; model: string; ms: number }
  | { status: "error"; message: string };

/** What the upload endpoint answers for one file. */
export type UploadOutcome = { state: "done"; chunks: number; duplicate: boolean } | { state: "error"; message: string };
