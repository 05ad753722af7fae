/**
 * The knowledge base's shapes shared by lib/kb (which builds them) and the knowledge pages' client
 * components (which render them). Client-safe: no imports. `D` is how a date travels: a Date on the
 * server, an ISO string once serialised for a client component.
 */

/** A collection with its document and chunk counts. */
export interface CollectionView<D = Date> {
  id: string;
  name: string;
  description: string;
  embeddingModel: string | null;
  dimensions: number | null;
  documentCount: number;
  chunkCount: number;
  createdAt: D;
  updatedAt: D;
}

/** One uploaded document of a collection. */
export interface DocumentView<D = Date> {
  id: string;
  collectionId: string;
  name: string;
  title: string | null;
  format: string;
  sizeBytes: number;
  pageCount: number | null;
  chunkCount: number;
  textChars: number;
  createdAt: D;
}

/** A collection as the collection list renders it. */
export type CollectionRow = Omit<CollectionView<string>, "createdAt">;

/** A document as the collection page's document table renders it. */
export type DocumentRow = Omit<DocumentView<string>, "collectionId">;

/** A search hit: the chunk with where it came from and how it ranked. */
export interface KbHit {
  chunkId: string;
  documentId: string;
  documentName: string;
  collectionId: string;
  collectionName: string;
  ordinal: number;
  text: string;
  startOffset: number;
  endOffset: number;
  page: number | null;
  heading: string | null;
  /** Reciprocal-rank-fusion score of the two rankings below (higher is better). */
  score: number;
  /** Cosine similarity to the query (null: not among the vector candidates). */
  similarity: number | null;
  /** ts_rank_cd of the full-text match (null: no full-text match). */
  textRank: number | null;
}

/** A search hit as the collection page's "try a search" panel renders it. */
export type SearchHitView = Pick<
  KbHit,
  "chunkId" | "documentName" | "ordinal" | "text" | "page" | "heading" | "score" | "similarity" | "textRank"
>;
