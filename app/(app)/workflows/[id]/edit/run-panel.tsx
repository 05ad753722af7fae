"use client";
import Link from "next/link";
import { StatusBadge } from "@/components/terms/status-badge";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input, Textarea } from "@/components/ui/input";
import type { RunPanelContext } from "@/components/editor/editor-types";
import { runEventEnvelopeSchema } from "@/lib/engine/events";
import { liveFrameSchema, type LiveFrame, type LiveStepText } from "@/lib/events/live-frame";
import type { Field } from "@/lib/workflow/schema";
import { startRunAction } from "./run-action";
import { applyRunEvent, applyLiveText, initialRunView, type RunView } from "./run-overlay";

function coerce(field: Field, raw: string): unknown {
  switch (field.type) {
    case "number":
      return raw.trim() === "" ? undefined : Number(raw);
    case "boolean":
      return raw === "true";
    case "json":
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    case "string":
    case "text":
      return raw;
  }
}

/**
 * Run from the editor: a form generated from the workflow's input fields, then startRunAction (the
 * server action twin of POST /api/workflows/[id]/runs) and a live overlay fed by the run's SSE
 * stream (/api/runs/[id]/events).
 */
export function RunPanel({ workflowId, doc, blockers, save, setRunOverlay }: RunPanelContext) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [runId, setRunId] = useState<string | null>(null);
  const [view, setView] = useState<RunView | null>(null);
  const [starting, setStarting] = useState(false);
  const source = useRef<EventSource | null>(null);

  useEffect(
    () => () => {
      source.current?.close();
      setRunOverlay(undefined);
    },
    [setRunOverlay],
  );
  useEffect(() => {
    if (view) setRunOverlay(view.nodes);
  }, [view, setRunOverlay]);

  const watch = (id: string) => {
    source.current?.close();
    let current = initialRunView(doc.nodes.map((n) => n.id));
    setView(current);
    const es = new EventSource(`/api/runs/${id}/events`);
    es.onmessage = (msg) => {
      const parsed = runEventEnvelopeSchema.safeParse(JSON.parse(msg.data as string));
      if (!parsed.success) return;
      current = applyRunEvent(current, parsed.data.seq, parsed.data.event);
      setView(current);
    };
    // live text of running steps: the node's "now writing" line (ephemeral token frames)
    const texts = new Map<string, LiveStepText>();
    es.addEventListener("live", (msg: MessageEvent<string>) => {
      const parsed = liveFrameSchema.safeParse(JSON.parse(msg.data));
      if (!parsed.success) return;
      const next = applyLiveText(current, texts, parsed.data as LiveFrame);
      if (next === current) return;
      current = next;
      setView(current);
    });
    es.addEventListener("end", () => es.close());
    source.current = es;
  };

  const start = async () => {
    setStarting(true);
    try {
      if (!(await save())) return;
      const inputs = Object.fromEntries(
        doc.inputs.map((f) => [f.key, coerce(f, values[f.key] ?? "")]).filter(([, v]) => v !== undefined),
      );
      const started = await startRunAction(workflowId, inputs);
      if (!started.ok) return void toast.error(started.error);
      if (!started.data.dispatched)
        toast.warning("The run is saved but Redis did not answer: the worker's reconciler starts it shortly.");
      setRunId(started.data.runId);
      watch(started.data.runId);
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className="grid gap-3" data-testid="run-panel">
      {blockers.length > 0 && (
        <p
          className="rounded-md border border-danger/30 bg-danger/10 p-2 text-xs text-danger"
          data-testid="run-blocked"
        >
          {blockers.length} validation error(s) must be fixed before this workflow can run (see Issues). Saving a draft
          is still possible.
        </p>
      )}
      <form
        className="grid gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        {doc.inputs.length === 0 && <p className="text-xs text-muted">This workflow takes no inputs.</p>}
        {doc.inputs.map((f) =>
          f.type === "boolean" ? (
            <label key={f.key} className="flex items-center gap-2 text-xs">
              <input
                type="checkbox"
                checked={values[f.key] === "true"}
                data-testid={`run-input-${f.key}`}
                onChange={(e) => setValues({ ...values, [f.key]: String(e.target.checked) })}
              />
              <span className="font-medium">{f.key}</span>
              {f.description && <span className="text-muted">{f.description}</span>}
            </label>
          ) : (
            <label key={f.key} className="grid gap-1 text-xs">
              <span className="font-medium">
                {f.key}
                {f.required ? " *" : ""} <span className="text-muted">({f.type})</span>
              </span>
              {f.description && <span className="text-muted">{f.description}</span>}
              {f.type === "text" || f.type === "json" ? (
                <Textarea
                  rows={3}
                  value={values[f.key] ?? ""}
                  required={f.required}
                  data-testid={`run-input-${f.key}`}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                />
              ) : (
                <Input
                  type={f.type === "number" ? "number" : "text"}
                  value={values[f.key] ?? ""}
                  required={f.required}
                  data-testid={`run-input-${f.key}`}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                />
              )}
            </label>
          ),
        )}
        <Button type="submit" disabled={blockers.length > 0} loading={starting} data-testid="run-start">
          Run
        </Button>
      </form>
      {runId && view && (
        <div
          className="grid gap-1 rounded-md border border-border p-2 text-xs"
          data-testid="run-status"
          data-status={view.status}
        >
          <span className="flex flex-wrap items-center gap-1.5">
            Run <code>{runId.slice(0, 10)}</code> <StatusBadge status={view.status} testId="run-status-text" />
            {view.reason ? ` ${view.reason}` : ""}
          </span>
          <span data-testid="run-tokens">
            Tokens so far: {view.promptTokens + view.completionTokens} ({view.promptTokens} in / {view.completionTokens}{" "}
            out)
          </span>
          <Link href={`/runs/${runId}`} className="text-primary underline" data-testid="run-link">
            Open the run&apos;s dashboard
          </Link>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              source.current?.close();
              setRunId(null);
              setView(null);
              setRunOverlay(undefined);
            }}
          >
            Clear overlay
          </Button>
        </div>
      )}
    </div>
  );
}
