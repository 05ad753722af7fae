import * as z from "zod";
import { answerWithSources } from "@/lib/kb/answer";
import { searchKnowledge } from "@/lib/kb/search";
import { ensureCollection, ingestDocument } from "@/lib/kb/collections";
import { ownerModelResolver } from "@/lib/providers/resolver";
import { defineBuiltin } from "./types";

/** Knowledge-base tools (lib/kb): save text, query chunks, answer with cited sources. Owner-scoped. */

const collectionsArg = {
  collection: z.string().min(1).max(80).optional().describe("Collection name; omit to search all your collections"),
  collections: z.array(z.string().min(1).max(80)).max(20).optional().describe("Several collection names"),
};
const pick = (a: { collection?: string; collections?: string[] }) => [
  ...new Set([...(a.collection ? [a.collection] : []), ...(a.collections ?? [])]),
];

export const kbSave = defineBuiltin({
  name: "kb_save",
  description:
    "Saves text (Markdown allowed) as a document in a knowledge-base collection (created if missing), chunked and embedded for later kb_query / kb_answer.",
  sideEffect: true,
  args: z.object({
    collection: z.string().min(1).max(80).describe("Collection name"),
    title: z.string().trim().min(1).max(200).describe("Document title"),
    text: z.string().min(1).max(500_000).describe("The text to save"),
  }),
  run: async ({ collection, title, text }, ctx) => {
    const coll = await ensureCollection(ctx.workspaceId, collection);
    const body = text.trimStart().startsWith("#") ? text : `# ${title}\n\n${text}`;
    const { document, duplicate } = await ingestDocument(ctx.workspaceId, coll.id, {
      name: `${title}.md`,
      bytes: new TextEncoder().encode(body),
      format: "markdown",
    });
    return {
      collection: coll.name,
      documentId: document.id,
      title: document.title ?? title,
      chunks: document.chunkCount,
      duplicate,
    };
  },
});

export const kbQuery = defineBuiltin({
  name: "kb_query",
  description:
    "Searches your knowledge base (hybrid: meaning + exact words) and returns the top matching chunks with their source (document, page, heading, chunk id).",
  sideEffect: false,
  args: z.object({
    query: z.string().trim().min(1).max(2000).describe("Question or keywords"),
    ...collectionsArg,
    k: z.number().int().min(1).max(20).default(5).describe("How many chunks"),
  }),
  run: async (a, ctx) => {
    const hits = await searchKnowledge(ctx.workspaceId, { query: a.query, collections: pick(a), k: a.k });
    return {
      results: hits.map((h) => ({
        chunkId: h.chunkId,
        document: h.documentName,
        collection: h.collectionName,
        page: h.page,
        heading: h.heading,
        text: h.text,
        score: Number(h.score.toFixed(5)),
        similarity: h.similarity === null ? null : Number(h.similarity.toFixed(4)),
      })),
    };
  },
});

export const kbAnswer = defineBuiltin({
  name: "kb_answer",
  description:
    "Answers a question from your knowledge base: retrieves the top chunks, asks the model to answer from them only, and returns the answer with the cited source chunks.",
  sideEffect: false,
  args: z.object({
    question: z.string().trim().min(1).max(2000),
    ...collectionsArg,
    k: z.number().int().min(1).max(20).default(5).describe("How many chunks to read"),
    model: z.string().min(1).max(200).optional().describe("Model name; default: your default model"),
  }),
  run: async (a, ctx) => {
    const config = await ownerModelResolver(ctx.workspaceId)(a.model ? { model: a.model } : null);
    const r = await answerWithSources(ctx.workspaceId, { question: a.question, collections: pick(a), k: a.k }, config, {
      signal: ctx.signal,
    });
    const brief = (s: (typeof r.sources)[number]) => ({
      label: s.label,
      chunkId: s.chunkId,
      document: s.documentName,
      collection: s.collectionName,
      page: s.page,
      heading: s.heading,
      text: s.text,
    });
    return {
      answer: r.answer,
      citations: r.citations.map(brief),
      sources: r.sources.map((s) => ({ label: s.label, chunkId: s.chunkId, document: s.documentName, page: s.page })),
    };
  },
});
