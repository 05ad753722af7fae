import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import { embeddingSetup, embedTexts, queryPlanes, type EmbeddingSetup } from "./embeddings";
import type { KbHit } from "./types";

export const searchInputSchema = z.object({
  query: z.string().trim().min(1, "Enter a question or keywords").max(2000),
  /** Collection ids or names; empty = all of the owner's collections. */
  collections: z.array(z.string().min(1)).max(50).default([]),
  k: z.number().int().min(1).max(50).default(5),
  mode: z.enum(["hybrid", "vector", "text"]).default("hybrid"),
});
export type SearchInput = z.input<typeof searchInputSchema>;

/** Candidates taken from each ranking before fusion. */
const CANDIDATES = 50;
/**
 * Chunks re-scored by exact cosine after the sign-bit prefilter. A collection
 * with at most this many chunks (of the query's model) is searched exactly; above it, approximately.
 */
export const RERANK = 1000;
/** The usual RRF constant: damps the weight of the very first ranks. */
const RRF_K = 60;

type Row = Omit<KbHit, "score" | "similarity" | "textRank"> & {
  score: number;
  similarity: number | null;
  textRank: number | null;
};

/**
 * Hybrid search over the owner's collections: the query is embedded with the configured model; the
 * chunks of collections embedded with that same model are prefiltered by an asymmetric 1-bit score (the
 * 4-bit-quantised query against each chunk's sign bits, with varbit AND + bit_count — several times
 * cheaper than a float dot product in SQL), and the best RERANK are scored by exact cosine (dot product
 * of L2-normalised real[] vectors). In parallel, PostgreSQL full-text search
 * (websearch_to_tsquery over a GIN-indexed tsvector) ranks exact-word matches. The two top-50 lists
 * are fused by reciprocal rank. Collections embedded with another model are searched by text only.
 */
export async function searchKnowledge(
  workspaceId: string,
  input: SearchInput,
  setup: EmbeddingSetup = embeddingSetup(),
): Promise<KbHit[]> {
  const q = searchInputSchema.parse(input);
  const colls = await db().kbCollection.findMany({
    where: {
      workspaceId,
      ...(q.collections.length ? { OR: [{ id: { in: q.collections } }, { name: { in: q.collections } }] } : {}),
    },
    select: { id: true, name: true, embeddingModel: true, dimensions: true },
  });
  if (q.collections.length) {
    const known = new Set(colls.flatMap((c) => [c.id, c.name]));
    const missing = q.collections.filter((c) => !known.has(c));
    if (missing.length) throw notFound(`No collection named ${missing.map((m) => `"${m}"`).join(", ")}`);
  }
  if (!colls.length) return [];
  const allIds = colls.map((c) => c.id);
  let vector: number[] = [];
  let vecIds: string[] = [];
  if (q.mode !== "text") {
    const embedded = colls.filter(
      (c) =>
        c.embeddingModel === setup.config.model &&
        (setup.dimensions === undefined || c.dimensions === setup.dimensions),
    );
    if (embedded.length) {
      const { vectors, dimensions } = await embedTexts([q.query], setup);
      vector = vectors[0]!;
      vecIds = embedded.filter((c) => c.dimensions === dimensions).map((c) => c.id);
    }
  }
  const textIds = q.mode === "vector" ? [] : allIds;
  const planes = vector.length ? queryPlanes(vector) : { pos: ["", "", "", ""], neg: ["", "", "", ""] };
  const rows = await db().$queryRaw<Row[]>`
    WITH q AS (SELECT ${vector}::real[] AS v, ${planes.pos}::varbit[] AS p, ${planes.neg}::varbit[] AS n, websearch_to_tsquery('english', ${q.query}) AS t),
    pre AS (
      SELECT c.id, c.embedding
      FROM "KbChunk" c CROSS JOIN q
      WHERE c."collectionId" = ANY(${vecIds}::text[]) AND cardinality(q.v) > 0 AND length(c."embeddingBits") = cardinality(q.v)
      ORDER BY (bit_count(c."embeddingBits" & q.p[1]) - bit_count(c."embeddingBits" & q.n[1]))
             + 2 * (bit_count(c."embeddingBits" & q.p[2]) - bit_count(c."embeddingBits" & q.n[2]))
             + 4 * (bit_count(c."embeddingBits" & q.p[3]) - bit_count(c."embeddingBits" & q.n[3]))
             + 8 * (bit_count(c."embeddingBits" & q.p[4]) - bit_count(c."embeddingBits" & q.n[4])) DESC, c.id
      LIMIT ${RERANK}
    ),
    vec AS (
      SELECT pre.id, s.sim, row_number() OVER (ORDER BY s.sim DESC, pre.id) AS r
      FROM pre CROSS JOIN q
      CROSS JOIN LATERAL (SELECT sum(a * b)::float8 AS sim FROM unnest(pre.embedding, q.v) AS u(a, b)) s
      ORDER BY s.sim DESC, pre.id LIMIT ${CANDIDATES}
    ),
    txt AS (
      SELECT c.id, ts_rank_cd(c.tsv, q.t)::float8 AS rank, row_number() OVER (ORDER BY ts_rank_cd(c.tsv, q.t) DESC, c.id) AS r
      FROM "KbChunk" c CROSS JOIN q
      WHERE c."collectionId" = ANY(${textIds}::text[]) AND c.tsv @@ q.t
      ORDER BY rank DESC, c.id LIMIT ${CANDIDATES}
    ),
    ids AS (SELECT id FROM vec UNION SELECT id FROM txt)
    SELECT ch.id AS "chunkId", ch."documentId", d.name AS "documentName", ch."collectionId", k.name AS "collectionName",
           ch.ordinal, ch.text, ch."startOffset", ch."endOffset", ch.page, ch.heading,
           (coalesce(1.0 / (${RRF_K} + vec.r), 0) + coalesce(1.0 / (${RRF_K} + txt.r), 0))::float8 AS score,
           vec.sim AS similarity, txt.rank AS "textRank"
    FROM ids
    JOIN "KbChunk" ch ON ch.id = ids.id
    JOIN "KbDocument" d ON d.id = ch."documentId"
    JOIN "KbCollection" k ON k.id = ch."collectionId"
    LEFT JOIN vec ON vec.id = ids.id
    LEFT JOIN txt ON txt.id = ids.id
    ORDER BY score DESC, similarity DESC NULLS LAST, ch.id
    LIMIT ${q.k}`;
  return rows.map((r) => ({
    ...r,
    score: Number(r.score),
    similarity: r.similarity === null ? null : Number(r.similarity),
    textRank: r.textRank === null ? null : Number(r.textRank),
  }));
}
