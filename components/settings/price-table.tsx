"use client";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import type { FormResult } from "./types";

interface Row {
  model: string;
  promptPer1M: string;
  completionPer1M: string;
}

interface Props {
  prices: Record<string, { promptPer1M: number; completionPer1M: number }>;
  save: (rows: { model: string; promptPer1M: number; completionPer1M: number }[]) => Promise<FormResult>;
}

/** Per-model prices (USD per 1M tokens) that turn recorded tokens into estimated costs on run pages. */
export function PriceTable({ prices, save }: Props) {
  const [rows, setRows] = useState<Row[]>(() =>
    Object.entries(prices).map(([model, p]) => ({
      model,
      promptPer1M: String(p.promptPer1M),
      completionPer1M: String(p.completionPer1M),
    })),
  );
  const [pending, start] = useTransition();
  const set = (i: number, patch: Partial<Row>) => setRows(rows.map((r, k) => (k === i ? { ...r, ...patch } : r)));
  const submit = () =>
    start(async () => {
      const res = await save(
        rows
          .filter((r) => r.model.trim())
          .map((r) => ({
            model: r.model.trim(),
            promptPer1M: Number(r.promptPer1M) || 0,
            completionPer1M: Number(r.completionPer1M) || 0,
          })),
      );
      if (res.status === "ok") toast.success(res.message);
      else if (res.status === "error") toast.error(res.message ?? "Could not save the prices.");
    });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Model prices</CardTitle>
        <CardDescription>
          USD per one million tokens, by model name as the provider reports it. Used for estimated costs of runs and
          steps.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="grid gap-2" data-testid="price-rows">
          {rows.length > 0 && (
            <div className="grid grid-cols-[2fr_1fr_1fr_auto] gap-2 text-xs text-muted">
              <span>Model</span>
              <span>Prompt $/1M</span>
              <span>Completion $/1M</span>
              <span className="w-16" />
            </div>
          )}
          {rows.map((r, i) => (
            <div key={i} className="grid grid-cols-[2fr_1fr_1fr_auto] gap-2">
              <Input
                aria-label="Model"
                value={r.model}
                onChange={(e) => set(i, { model: e.target.value })}
                placeholder="gpt-4o-mini"
              />
              <Input
                aria-label="Prompt price per 1M tokens"
                type="number"
                min={0}
                step="any"
                value={r.promptPer1M}
                onChange={(e) => set(i, { promptPer1M: e.target.value })}
              />
              <Input
                aria-label="Completion price per 1M tokens"
                type="number"
                min={0}
                step="any"
                value={r.completionPer1M}
                onChange={(e) => set(i, { completionPer1M: e.target.value })}
              />
              <Button
                variant="ghost"
                size="sm"
                className="w-16"
                onClick={() => setRows(rows.filter((_, k) => k !== i))}
              >
                Remove
              </Button>
            </div>
          ))}
        </div>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setRows([...rows, { model: "", promptPer1M: "0", completionPer1M: "0" }])}
            data-testid="price-add"
          >
            Add model
          </Button>
          <Button size="sm" loading={pending} onClick={submit} data-testid="price-save">
            Save prices
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
