"use client";
import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import type { SearchResult } from "./types";

type Search = (input: { collectionId: string; query: string; mode?: string }) => Promise<SearchResult>;

/** Try a search: the top chunks with their document, page/heading and scores (what kb_query returns to agents). */
export function SearchPanel({
  collectionId,
  search,
  disabled,
}: {
  collectionId: string;
  search: Search;
  disabled?: boolean;
}) {
  const [query, setQuery] = useState("");
  const [mode, setMode] = useState("hybrid");
  const [result, setResult] = useState<SearchResult | null>(null);
  const [pending, start] = useTransition();
  return (
    <Card className="p-5">
      <form
        className="flex flex-wrap gap-2"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => setResult(await search({ collectionId, query, mode })));
        }}
      >
        <Input
          className="min-w-60 flex-1"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Ask a question or type keywords"
          aria-label="Search query"
          maxLength={2000}
          data-testid="kb-search-input"
        />
        {/* fieldClasses make every field w-full (cn does not merge classes), so the width comes from a wrapper */}
        <div className="w-40 shrink-0">
          <Select value={mode} onChange={(e) => setMode(e.target.value)} aria-label="Ranking">
            <option value="hybrid">Hybrid</option>
            <option value="vector">Meaning only</option>
            <option value="text">Words only</option>
          </Select>
        </div>
        <Button type="submit" loading={pending} disabled={disabled || !query.trim()}>
          Search
        </Button>
      </form>
      {result?.status === "error" && (
        <p className="mt-3 text-sm text-danger" role="alert">
          {result.message}
        </p>
      )}
      {result?.status === "ok" && (
        <div className="mt-4" aria-live="polite">
          <p className="mb-2 text-xs text-muted">
            {result.hits.length
              ? `${result.hits.length} chunk${result.hits.length === 1 ? "" : "s"} in ${result.ms} ms`
              : "Nothing matched."}
          </p>
          <ol className="grid gap-3" data-testid="kb-search-results">
            {result.hits.map((h, i) => (
              <li key={h.chunkId} className="rounded-md border border-border p-3">
                <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-muted">
                  <span className="font-semibold text-foreground">
                    {i + 1}. {h.documentName}
                  </span>
                  {h.page !== null && <Badge>page {h.page}</Badge>}
                  {h.heading && <span className="truncate">{h.heading}</span>}
                  <span className="ml-auto tabular-nums" title="cosine similarity · full-text rank">
                    {h.similarity !== null ? `cos ${h.similarity.toFixed(3)}` : "no vector match"} ·{" "}
                    {h.textRank !== null ? `text ${h.textRank.toFixed(3)}` : "no word match"}
                  </span>
                </div>
                <p className="line-clamp-6 whitespace-pre-wrap text-sm">{h.text}</p>
                <p className="mt-1 font-mono text-[11px] text-muted">chunk {h.chunkId}</p>
              </li>
            ))}
          </ol>
        </div>
      )}
    </Card>
  );
}
