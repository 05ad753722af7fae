import "server-only";
import * as z from "zod";
import { chat } from "@/lib/llm/invoke";
import type { ModelConfig } from "@/lib/llm/models";
import type { EmbeddingSetup } from "./embeddings";
import { searchKnowledge } from "./search";
import type { KbHit } from "./types";

/** Marker in the system prompt (scripted fixtures match it: `match.system: "[[kb-answer]]"`). */
export const KB_ANSWER_MARKER = "[[kb-answer]]";

export const answerInputSchema = z.object({
  question: z.string().trim().min(1).max(2000),
  collections: z.array(z.string().min(1)).max(50).default([]),
  k: z.number().int().min(1).max(20).default(5),
});
export type AnswerInput = z.input<typeof answerInputSchema>;

/** A source handed to the model, labelled S1…Sk in the prompt. */
export interface KbSource {
  label: string;
  chunkId: string;
  documentId: string;
  documentName: string;
  collectionName: string;
  page: number | null;
  heading: string | null;
  text: string;
}

export interface KbAnswer {
  answer: string;
  /** Sources the answer cites ([S2] or the chunk id itself), in order of first citation. */
  citations: KbSource[];
  /** Every source the model was given. */
  sources: KbSource[];
  model: string;
}

const where = (h: Pick<KbHit, "documentName" | "page" | "heading">) =>
  [h.documentName, h.page ? `page ${h.page}` : null, h.heading].filter(Boolean).join(", ");

/** The messages sent to the model: instructions, then the question and the labelled sources. */
export function answerPrompt(question: string, sources: KbSource[]): { role: "system" | "user"; content: string }[] {
  const system = `${KB_ANSWER_MARKER} Answer the question using only the sources below. After each statement, cite the source it comes from by its label in square brackets, e.g. [S1]. If the sources do not contain the answer, say that the knowledge base does not say, and cite nothing.`;
  const listing = sources.map((s) => `[${s.label}] (${where(s)}; chunk ${s.chunkId})\n${s.text}`).join("\n\n---\n\n");
  return [
    { role: "system", content: system },
    { role: "user", content: `Question: ${question}\n\nSources:\n\n${listing || "(no sources found)"}` },
  ];
}

/** Sources an answer cites: `[S3]`, `[S1, S2]`, `[chunk:<id>]` or a chunk id written out; first citation first. */
export function citedSources(answer: string, sources: KbSource[]): KbSource[] {
  const at = new Map<KbSource, number>();
  const note = (s: KbSource | undefined, i: number) => {
    if (s && !at.has(s)) at.set(s, i);
  };
  for (const m of answer.matchAll(/\[([^\]]{1,200})\]/g)) {
    for (const token of m[1]!.split(/[\s,;]+/)) {
      const t = token.replace(/^(chunk|source)[:#]?/i, "");
      note(
        sources.find((s) => s.label.toLowerCase() === t.toLowerCase() || s.chunkId === t),
        m.index,
      );
    }
  }
  for (const s of sources) {
    const i = answer.indexOf(s.chunkId);
    if (i >= 0 && (at.get(s) ?? Infinity) > i) at.set(s, i);
  }
  return [...at.entries()].sort((a, b) => a[1] - b[1]).map(([s]) => s);
}

/** Retrieves the top-k chunks for the question, asks the model to answer from them only, and returns the cited chunks. */
export async function answerWithSources(
  workspaceId: string,
  input: AnswerInput,
  model: ModelConfig,
  opts: { setup?: EmbeddingSetup; signal?: AbortSignal } = {},
): Promise<KbAnswer> {
  const q = answerInputSchema.parse(input);
  const hits = await searchKnowledge(
    workspaceId,
    { query: q.question, collections: q.collections, k: q.k },
    opts.setup,
  );
  const sources: KbSource[] = hits.map((h, i) => ({
    label: `S${i + 1}`,
    chunkId: h.chunkId,
    documentId: h.documentId,
    documentName: h.documentName,
    collectionName: h.collectionName,
    page: h.page,
    heading: h.heading,
    text: h.text,
  }));
  if (!sources.length)
    return { answer: "The knowledge base has nothing on this question.", citations: [], sources, model: model.model };
  const result = await chat({ config: model, messages: answerPrompt(q.question, sources), signal: opts.signal });
  const answer = result.content.trim();
  return { answer, citations: citedSources(answer, sources), sources, model: result.model || model.model };
}
