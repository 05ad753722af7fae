"use client";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Textarea } from "@/components/ui/input";
import type { AskResult, AskSourceView } from "./types";

type Ask = (input: { collectionId?: string; question: string }) => Promise<AskResult>;

/** Where a source comes from: (collection,) document, page, heading. */
function SourceLine({ source, collection }: { source: AskSourceView; collection: boolean }) {
  return (
    <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-muted">
      <Badge>{source.label}</Badge>
      {collection && <span>{source.collectionName} ›</span>}
      <span className="font-semibold text-foreground">{source.documentName}</span>
      {source.page !== null && <Badge>page {source.page}</Badge>}
      {source.heading && <span className="truncate">{source.heading}</span>}
    </div>
  );
}

/**
 * Ask with sources: the top chunks of one collection (or, without `collectionId`, of all the user's
 * collections, whose names the sources then show) go to the user's default model, which answers from
 * them only and cites them ([S1]…) — what agents get from kb_answer. Shows the answer, the sources it
 * cites with their text, and the others it was given.
 */
export function AskPanel({ collectionId, ask, disabled }: { collectionId?: string; ask: Ask; disabled?: boolean }) {
  const [question, setQuestion] = useState("");
  const [result, setResult] = useState<AskResult | null>(null);
  const [pending, start] = useTransition();
  const uncited =
    result?.status === "ok" ? result.sources.filter((s) => !result.citations.some((c) => c.chunkId === s.chunkId)) : [];
  return (
    <Card className="p-5">
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => setResult(await ask({ ...(collectionId ? { collectionId } : {}), question })));
        }}
      >
        <Textarea
          rows={2}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          placeholder="Ask a question about these documents"
          aria-label="Question"
          maxLength={2000}
          data-testid="kb-ask-input"
        />
        <div className="flex items-center gap-3">
          <Button type="submit" loading={pending} disabled={disabled || !question.trim()}>
            Ask
          </Button>
          <span className="text-xs text-muted">
            Answered by your default model from the 5 best-matching chunks, with citations.
          </span>
        </div>
      </form>
      {result?.status === "error" && (
        <p className="mt-3 text-sm text-danger" role="alert">
          {result.message}
        </p>
      )}
      {result?.status === "ok" && (
        <div className="mt-4 grid gap-3" aria-live="polite" data-testid="kb-answer">
          <p className="whitespace-pre-wrap text-sm" data-testid="kb-answer-text">
            {result.answer}
          </p>
          <p className="text-xs text-muted">
            {result.model} · {result.ms} ms ·{" "}
            {result.citations.length ? `cites ${result.citations.map((c) => c.label).join(", ")}` : "cites no source"}
          </p>
          {result.citations.length > 0 && (
            <ol className="grid gap-2" aria-label="Cited sources" data-testid="kb-answer-citations">
              {result.citations.map((s) => (
                <li key={s.chunkId} className="rounded-md border border-border p-3">
                  <SourceLine source={s} collection={!collectionId} />
                  <p className="line-clamp-6 whitespace-pre-wrap text-sm">{s.text}</p>
                </li>
              ))}
            </ol>
          )}
          {uncited.length > 0 && (
            <details className="text-sm">
              <summary className="cursor-pointer text-xs text-muted">
                {uncited.length} more source{uncited.length === 1 ? "" : "s"} the model was given
              </summary>
              <ol className="mt-2 grid gap-2">
                {uncited.map((s) => (
                  <li key={s.chunkId} className="rounded-md border border-border p-3">
                    <SourceLine source={s} collection={!collectionId} />
                    <p className="line-clamp-3 whitespace-pre-wrap text-sm">{s.text}</p>
                  </li>
                ))}
              </ol>
            </details>
          )}
        </div>
      )}
    </Card>
  );
}
