"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import * as z from "zod";
import type { ActionResult, AskResult, SearchResult } from "@/components/knowledge/types";
import type { SearchHitView } from "@/lib/kb/types";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { answerWithSources, type KbSource } from "@/lib/kb/answer";
import { searchKnowledge } from "@/lib/kb/search";
import { collectionInputSchema, createCollection, deleteCollection, deleteDocument } from "@/lib/kb/collections";
import { modelLabel } from "@/lib/llm/models";
import { ProviderError } from "@/lib/llm/retry";
import { createLogger } from "@/lib/logger";
import { rateLimiter } from "@/lib/limits/rate-limit";
import { ownerModelResolver } from "@/lib/providers/resolver";

const log = createLogger({ component: "knowledge-actions" });
const idSchema = z.string().min(1).max(100);

const failure = (err: unknown, what: string): ActionResult => {
  if (err instanceof AppError) return { status: "error", message: err.message };
  log.error(`${what} failed`, { error: err instanceof Error ? err.message : String(err) });
  return { status: "error", message: `${what} failed. Try again.` };
};

/** Creates a collection from the form (name, description) and opens it. */
export async function createCollectionAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const access = await requireAccess("edit");
  const parsed = collectionInputSchema.safeParse({
    name: form.get("name") ?? "",
    description: form.get("description") ?? "",
  });
  if (!parsed.success) {
    const fields = z.flattenError(parsed.error).fieldErrors;
    return {
      status: "error",
      message: "Check the highlighted fields.",
      fieldErrors: { name: fields.name?.[0], description: fields.description?.[0] },
    };
  }
  let id: string;
  try {
    id = (await createCollection(access.workspaceId, parsed.data)).id;
  } catch (err) {
    return failure(err, "Creating the collection");
  }
  revalidatePath("/knowledge");
  redirect(`/knowledge/${id}`);
}

/** Deletes one of the user's collections with all its documents, then returns to the list. */
export async function deleteCollectionAction(form: FormData): Promise<void> {
  const access = await requireAccess("edit");
  const id = idSchema.safeParse(form.get("id"));
  if (id.success) await deleteCollection(access.workspaceId, id.data);
  revalidatePath("/knowledge");
  redirect("/knowledge");
}

/** Deletes one document (and its chunks) of the user's. */
export async function deleteDocumentAction(id: string): Promise<ActionResult> {
  const access = await requireAccess("edit");
  const parsed = idSchema.safeParse(id);
  const removed = parsed.success && (await deleteDocument(access.workspaceId, parsed.data));
  if (!removed) return { status: "error", message: "This document no longer exists." };
  revalidatePath("/knowledge", "layout");
  return { status: "ok", message: "Document deleted." };
}

const searchSchema = z.object({
  collectionId: idSchema,
  query: z.string().trim().min(1, "Type a question or keywords").max(2000),
  mode: z.enum(["hybrid", "vector", "text"]).default("hybrid"),
});

/** Tries a search in one collection: the top 5 chunks with their source and scores. */
export async function searchAction(input: {
  collectionId: string;
  query: string;
  mode?: string;
}): Promise<SearchResult> {
  const access = await requireAccess("read");
  const parsed = searchSchema.safeParse(input);
  if (!parsed.success)
    return { status: "error", message: z.flattenError(parsed.error).fieldErrors.query?.[0] ?? "Invalid search." };
  try {
    const t0 = performance.now();
    const hits = await searchKnowledge(access.workspaceId, {
      query: parsed.data.query,
      collections: [parsed.data.collectionId],
      k: 5,
      mode: parsed.data.mode,
    });
    const view: SearchHitView[] = hits.map((h) => ({
      chunkId: h.chunkId,
      documentName: h.documentName,
      ordinal: h.ordinal,
      text: h.text,
      page: h.page,
      heading: h.heading,
      score: h.score,
      similarity: h.similarity,
      textRank: h.textRank,
    }));
    return { status: "ok", hits: view, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const f = failure(err, "The search");
    return { status: "error", message: f.status === "error" ? f.message : "The search failed." };
  }
}

const askSchema = z.object({
  collectionId: idSchema.optional(),
  question: z.string().trim().min(1, "Type a question").max(2000, "At most 2,000 characters"),
});

/** Each question is a model call on the user's provider: at most this many per minute. */
const ASK_RULE = { name: "kb-ask", max: 20, windowMs: 60_000 };

/**
 * Asks one collection (or, without `collectionId`, all of the user's) a question, as agents'
 * kb_answer does: the top 5 chunks go to the user's default model (the same chain as a run's agent
 * without a model), which answers from them only and cites them as [S1]…; the answer comes back with
 * the sources it cites and those it was given.
 */
export async function askAction(input: { collectionId?: string; question: string }): Promise<AskResult> {
  const access = await requireAccess("run");
  const parsed = askSchema.safeParse(input);
  if (!parsed.success)
    return { status: "error", message: z.flattenError(parsed.error).fieldErrors.question?.[0] ?? "Invalid question." };
  const decision = await rateLimiter().hit(ASK_RULE, access.userId);
  if (!decision.allowed)
    return {
      status: "error",
      message: `Too many questions: at most ${ASK_RULE.max} per minute. Try again in ${decision.retryAfterSeconds} s.`,
    };
  try {
    const t0 = performance.now();
    const config = await ownerModelResolver(access.workspaceId)(null);
    const r = await answerWithSources(
      access.workspaceId,
      { question: parsed.data.question, collections: parsed.data.collectionId ? [parsed.data.collectionId] : [], k: 5 },
      config,
    );
    const view = (s: KbSource) => ({
      label: s.label,
      chunkId: s.chunkId,
      documentName: s.documentName,
      collectionName: s.collectionName,
      page: s.page,
      heading: s.heading,
      text: s.text,
    });
    return {
      status: "ok",
      answer: r.answer,
      citations: r.citations.map(view),
      sources: r.sources.map(view),
      model: modelLabel({ model: r.model }),
      ms: Math.round(performance.now() - t0),
    };
  } catch (err) {
    if (err instanceof ProviderError) return { status: "error", message: `The model could not answer: ${err.message}` };
    const f = failure(err, "Answering");
    return { status: "error", message: f.status === "error" ? f.message : "Answering failed." };
  }
}
