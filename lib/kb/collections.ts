import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { countTokens } from "gpt-tokenizer";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { createLogger } from "@/lib/logger";
import { chunkText, type Chunk } from "./chunk";
import { convertToText } from "./convert";
import { embeddingSetup, embedTexts, signBits, type EmbeddingSetup } from "./embeddings";
import { formatOf, KB_EXTENSIONS, KB_MIME, kbRejected, type KbFormat } from "./formats";
import type { CollectionView, DocumentView } from "./types";

const log = createLogger({ component: "kb" });

/** Collection names: what users and agents type (kb_query {collection: "reports"}). */
export const collectionInputSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter a name")
    .max(80)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, "Use letters, digits, spaces, dots, dashes or underscores"),
  description: z.string().trim().max(1000).default(""),
});
export type CollectionInput = z.input<typeof collectionInputSchema>;

/** Limits of one upload; maxBytes defaults to WEFT_KB_MAX_UPLOAD_MB. */
export const maxUploadBytes = (): number => Math.round(Number(process.env.WEFT_KB_MAX_UPLOAD_MB || 10) * 1024 * 1024);

/** Chunks kept per document (a bigger document is refused: split it). */
export const MAX_CHUNKS_PER_DOCUMENT = 5000;

function conflictOnDuplicate(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
    throw new AppError("conflict", "You already have a collection with this name.");
  throw err;
}

type CollectionRow = Omit<CollectionView, "documentCount" | "chunkCount">;

async function withCounts(rows: CollectionRow[]): Promise<CollectionView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [docs, chunks] = await Promise.all([
    db().kbDocument.groupBy({ by: ["collectionId"], where: { collectionId: { in: ids } }, _count: { _all: true } }),
    db().kbChunk.groupBy({ by: ["collectionId"], where: { collectionId: { in: ids } }, _count: { _all: true } }),
  ]);
  const d = new Map(docs.map((x) => [x.collectionId, x._count._all]));
  const c = new Map(chunks.map((x) => [x.collectionId, x._count._all]));
  return rows.map((r) => ({ ...r, documentCount: d.get(r.id) ?? 0, chunkCount: c.get(r.id) ?? 0 }));
}

const collectionSelect = {
  id: true,
  name: true,
  description: true,
  embeddingModel: true,
  dimensions: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** Creates a collection for the owner (409 conflict when the name is taken). */
export async function createCollection(workspaceId: string, input: CollectionInput): Promise<CollectionView> {
  const data = collectionInputSchema.parse(input);
  const row = await db()
    .kbCollection.create({ data: { workspaceId, ...data }, select: collectionSelect })
    .catch(conflictOnDuplicate);
  return { ...row, documentCount: 0, chunkCount: 0 };
}

/** The owner's collections by name, with document and chunk counts. */
export async function listCollections(workspaceId: string): Promise<CollectionView[]> {
  return withCounts(
    await db().kbCollection.findMany({ where: { workspaceId }, orderBy: { name: "asc" }, select: collectionSelect }),
  );
}

/** One of the owner's collections by id or exact name (null when absent or someone else's). */
export async function findCollection(workspaceId: string, idOrName: string): Promise<CollectionView | null> {
  const row = await db().kbCollection.findFirst({
    where: { workspaceId, OR: [{ id: idOrName }, { name: idOrName }] },
    select: collectionSelect,
  });
  return row ? (await withCounts([row]))[0]! : null;
}

/** The collection named `name`, created when missing (kb_save). */
export async function ensureCollection(workspaceId: string, name: string): Promise<CollectionView> {
  const found = await findCollection(workspaceId, name);
  if (found) return found;
  try {
    return await createCollection(workspaceId, { name });
  } catch (err) {
    const again = await findCollection(workspaceId, name); // created concurrently
    if (again) return again;
    throw err;
  }
}

/** Deletes a collection with its documents and chunks; false when not the owner's. */
export async function deleteCollection(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().kbCollection.deleteMany({ where: { id, workspaceId } });
  return count === 1;
}

const documentSelect = {
  id: true,
  collectionId: true,
  name: true,
  title: true,
  format: true,
  sizeBytes: true,
  pageCount: true,
  chunkCount: true,
  createdAt: true,
} as const;

/** Documents of one of the owner's collections, newest first (null when the collection is not theirs). */
export async function listDocuments(workspaceId: string, collectionId: string): Promise<DocumentView[] | null> {
  const coll = await db().kbCollection.findFirst({ where: { id: collectionId, workspaceId }, select: { id: true } });
  if (!coll) return null;
  const rows = await db().$queryRaw<(DocumentView & { textChars: number })[]>`
    SELECT id, "collectionId", name, title, format, "sizeBytes", "pageCount", "chunkCount", "createdAt", length(text)::int AS "textChars"
    FROM "KbDocument" WHERE "collectionId" = ${collectionId} ORDER BY "createdAt" DESC, id`;
  return rows;
}

/** One of the owner's documents with its text (null when absent or someone else's). */
export async function getDocument(workspaceId: string, id: string): Promise<(DocumentView & { text: string }) | null> {
  const row = await db().kbDocument.findFirst({
    where: { id, workspaceId },
    select: { ...documentSelect, text: true },
  });
  return row ? { ...row, textChars: row.text.length } : null;
}

/** Deletes one of the owner's documents and its chunks; false when not theirs. */
export async function deleteDocument(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().kbDocument.deleteMany({ where: { id, workspaceId } });
  return count === 1;
}

/** A file (or text) to add to a collection. */
export interface UploadInput {
  name: string;
  bytes: Uint8Array;
  mimeType?: string;
  /** Force a format (kb_save passes "markdown"); default from the name, then the MIME type. */
  format?: KbFormat;
}

export interface IngestResult {
  document: DocumentView;
  /** True when the same bytes were already in the collection: nothing new was stored. */
  duplicate: boolean;
}

/** What the embedder sees for a chunk: its heading path (or the title) for context, then the text. */
export function embeddingInput(chunk: Pick<Chunk, "text" | "heading">, title: string | null): string {
  const context = chunk.heading ?? title;
  return context ? `${context}\n\n${chunk.text}` : chunk.text;
}

/**
 * Adds one file to one of the owner's collections: checks size and format, converts to text, chunks,
 * embeds, then stores the document and all its chunks in ONE transaction, so a failure at any stage
 * leaves nothing half-stored. Refusals are AppError bad_request with details.reason
 * (unsupported | too_large | corrupt | empty); the same bytes twice give the existing document.
 */
export async function ingestDocument(
  workspaceId: string,
  collectionId: string,
  input: UploadInput,
  setup: EmbeddingSetup = embeddingSetup(),
): Promise<IngestResult> {
  const coll = await db().kbCollection.findFirst({
    where: { id: collectionId, workspaceId },
    select: { id: true, embeddingModel: true, dimensions: true },
  });
  if (!coll) throw notFound("Collection not found");
  const name = input.name.trim().slice(0, 255) || "untitled";
  const limit = maxUploadBytes();
  if (input.bytes.byteLength > limit) {
    throw kbRejected(
      "too_large",
      `${name} is ${(input.bytes.byteLength / 1048576).toFixed(1)} MB; the limit is ${(limit / 1048576).toFixed(1)} MB.`,
    );
  }
  if (input.bytes.byteLength === 0) throw kbRejected("empty", `${name} is empty.`);
  const format = input.format ?? formatOf(name, input.mimeType);
  if (!format) {
    const accepted = Object.values(KB_EXTENSIONS)
      .map((e) => e[0])
      .join(", ");
    throw kbRejected("unsupported", `${name}: this file type is not supported. Upload ${accepted} files.`);
  }
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const existing = await db().kbDocument.findFirst({ where: { collectionId, sha256 }, select: documentSelect });
  if (existing) return { document: { ...existing, textChars: await textChars(existing.id) }, duplicate: true };
  checkEmbeddingModel(coll, setup);

  const converted = await convertToText(format, input.bytes, name);
  const chunks = chunkText(converted.text, { pages: converted.pages, lineUnits: format === "csv" });
  if (chunks.length > MAX_CHUNKS_PER_DOCUMENT)
    throw kbRejected(
      "too_large",
      `${name} makes ${chunks.length} chunks; the limit is ${MAX_CHUNKS_PER_DOCUMENT}. Split the file.`,
    );
  const title = converted.title ?? null;
  const { vectors, dimensions, model } = await embedTexts(
    chunks.map((c) => embeddingInput(c, title ?? name)),
    setup,
  );

  const documentId = randomUUID();
  try {
    const document = await db().$transaction(
      async (tx) => {
        // Fix the collection's embedding model on first use; refuse a different one afterwards.
        await tx.kbCollection.updateMany({
          where: { id: collectionId, dimensions: null },
          data: { embeddingModel: model, dimensions },
        });
        const current = await tx.kbCollection.findUniqueOrThrow({
          where: { id: collectionId },
          select: { embeddingModel: true, dimensions: true },
        });
        checkEmbeddingModel(current, { ...setup, dimensions });
        const doc = await tx.kbDocument.create({
          data: {
            id: documentId,
            workspaceId,
            collectionId,
            name,
            format,
            mimeType: KB_MIME[format],
            sizeBytes: input.bytes.byteLength,
            sha256,
            title,
            text: converted.text,
            pageCount: converted.pages ? Math.max(0, ...converted.pages.map((p) => p.page)) : null,
            chunkCount: chunks.length,
          },
          select: documentSelect,
        });
        for (let i = 0; i < chunks.length; i += 500)
          await insertChunks(tx, documentId, collectionId, chunks.slice(i, i + 500), vectors.slice(i, i + 500));
        await tx.kbCollection.update({ where: { id: collectionId }, data: { updatedAt: new Date() } });
        return doc;
      },
      { timeout: 60_000 },
    );
    log.info("kb document stored", { collectionId, documentId, format, chunks: chunks.length, dimensions });
    return { document: { ...document, textChars: converted.text.length }, duplicate: false };
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const doc = await db().kbDocument.findFirst({ where: { collectionId, sha256 }, select: documentSelect });
      if (doc) return { document: { ...doc, textChars: converted.text.length }, duplicate: true };
    }
    throw err;
  }
}

async function textChars(id: string): Promise<number> {
  const [row] = await db().$queryRaw<{ n: number }[]>`SELECT length(text)::int AS n FROM "KbDocument" WHERE id = ${id}`;
  return row?.n ?? 0;
}

/** A collection embedded with one model cannot be searched with another: say so instead of mixing vectors. */
function checkEmbeddingModel(
  coll: { embeddingModel: string | null; dimensions: number | null },
  setup: EmbeddingSetup,
): void {
  if (!coll.embeddingModel) return;
  const sameModel = coll.embeddingModel === setup.config.model;
  const sameDims = setup.dimensions === undefined || coll.dimensions === setup.dimensions;
  if (!sameModel || !sameDims) {
    throw new AppError(
      "conflict",
      `This collection was embedded with ${coll.embeddingModel} (${coll.dimensions} dimensions) but the configured embedding model is ${setup.config.model}${setup.dimensions ? ` (${setup.dimensions})` : ""}. Create a new collection or restore the embedding settings.`,
    );
  }
}

const vectorLiteral = (v: number[]) => `{${v.map((x) => (Number.isFinite(x) ? x : 0).toPrecision(7)).join(",")}}`;

async function insertChunks(
  tx: Prisma.TransactionClient,
  documentId: string,
  collectionId: string,
  chunks: Chunk[],
  vectors: number[][],
): Promise<void> {
  const ids = chunks.map(() => randomUUID());
  await tx.$executeRaw`
    INSERT INTO "KbChunk" (id, "documentId", "collectionId", ordinal, text, "startOffset", "endOffset", page, heading, tokens, embedding, "embeddingBits", tsv)
    SELECT u.id, ${documentId}, ${collectionId}, u.ordinal, u.text, u.s, u.e, u.page, u.heading, u.tokens, u.emb::real[], u.bits::varbit,
           setweight(to_tsvector('english', coalesce(u.heading, '')), 'A') || to_tsvector('english', u.text)
    FROM unnest(${ids}::text[], ${chunks.map((c) => c.ordinal)}::int[], ${chunks.map((c) => c.text)}::text[],
                ${chunks.map((c) => c.start)}::int[], ${chunks.map((c) => c.end)}::int[], ${chunks.map((c) => c.page)}::int[],
                ${chunks.map((c) => c.heading)}::text[], ${chunks.map((c) => countTokens(c.text))}::int[], ${vectors.map(vectorLiteral)}::text[],
                ${vectors.map(signBits)}::text[])
      AS u(id, ordinal, text, s, e, page, heading, tokens, emb, bits)`;
}
