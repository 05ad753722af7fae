/** Plain, serialisable shapes the knowledge pages hand to their client components. */

export type ActionResult =
  | { status: "idle" }
  | { status: "ok"; message: string }
  | { status: "error"; message: string; fieldErrors?: { name?: string; description?: string } };

export interface CollectionRow {
  id: string;
  name: string;
  description: string;
  documentCount: number;
  chunkCount: number;
  embeddingModel: string | null;
  dimensions: number | null;
  updatedAt: string;
}

export interface DocumentRow {
  id: string;
  name: string;
  title: string | null;
  format: string;
  sizeBytes: number;
  pageCount: number | null;
  chunkCount: number;
  textChars: number;
  createdAt: string;
}

export interface SearchHitView {
  chunkId: string;
  documentName: string;
  ordinal: number;
  text: string;
  page: number | null;
  heading: string | null;
  score: number;
  similarity: number | null;
  textRank: number | null;
}

export type SearchResult = { status: "ok"; hits: SearchHitView[]; ms: number } | { status: "error"; message: string };

/** What the upload endpoint answers for one file. */
export type UploadOutcome =
  | { state: "done"; chunks: number; duplicate: boolean }
  | { state: "error"; message: string };
