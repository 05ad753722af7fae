"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input, Select } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import type { EvaluationRow, EvaluationSummary } from "@/lib/designer/evaluate";

/** An evaluation as GET /api/designer/evaluations returns it. */
export type EvaluationJson = {
  id: string;
  label: string;
  model: string;
  path: string;
  source: string;
  status: "running" | "done" | "failed";
  total: number;
  rows: EvaluationRow[];
  summary: EvaluationSummary | null;
  error: string | null;
  createdAt: string;
};

const PATHS = [
  ["auto", "Auto: the provider's path, found and remembered"],
  ["json_schema", "Strict JSON schema (OpenAI)"],
  ["tool", "Forced tool call"],
  ["json_object", "JSON mode (Ollama, vLLM)"],
  ["text", "JSON in plain text"],
] as const;

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

async function api<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  const body = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `Request failed (${res.status}).`);
  return body;
}

function Summary({ e }: { e: EvaluationJson }) {
  const s = e.summary;
  if (!s) return null;
  const facts: [string, string][] = [
    ["valid", pct(s.validShare)],
    ["golden structure", pct(s.goldenMatchShare)],
    ["calls / request", s.callsPerRequest.toFixed(2)],
    ["tokens / request", String(Math.round(s.promptTokensPerRequest + s.completionTokensPerRequest))],
    ["time / request", `${(s.msPerRequest / 1000).toFixed(1)} s (p95 ${(s.msP95 / 1000).toFixed(1)} s)`],
    [
      "paths",
      Object.entries(s.paths)
        .map(([p, n]) => `${p} ×${n}`)
        .join(", ") || "—",
    ],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3" data-testid="evaluation-summary">
      {facts.map(([k, v]) => (
        <div key={k}>
          <dt className="text-xs text-muted">{k}</dt>
          <dd className="font-medium" data-testid={`evaluation-${k.replace(/\W+/g, "-")}`}>
            {v}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Rows({ rows }: { rows: EvaluationRow[] }) {
  return (
    <div className="max-h-96 overflow-auto rounded border border-border">
      <table className="w-full text-left text-xs" data-testid="evaluation-rows">
        <thead className="sticky top-0 bg-surface text-muted">
          <tr>
            <th className="p-1.5">Request</th>
            <th>Valid</th>
            <th>Golden</th>
            <th>Calls</th>
            <th>Tokens</th>
            <th>Time</th>
            <th>Left</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-t border-border" data-testid="evaluation-row" data-valid={r.valid}>
              <td className="p-1.5" title={r.request}>
                {r.id}
              </td>
              <td>{r.valid ? "yes" : "no"}</td>
              <td>{r.match ? "yes" : "no"}</td>
              <td>{r.calls}</td>
              <td>{r.promptTokens + r.completionTokens}</td>
              <td>{(r.ms / 1000).toFixed(1)} s</td>
              <td className="text-muted">{r.error ?? r.issues.join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "Evaluate the designer with this provider": start, watch it fill in, read past reports. */
export function EvaluationPanel({
  providers,
  initial,
  requests,
}: {
  providers: { id: string; name: string; defaultModel: string }[];
  initial: EvaluationJson[];
  requests: number;
}) {
  const [list, setList] = useState(initial);
  const [current, setCurrent] = useState<EvaluationJson | null>(
    initial.find((e) => e.status === "running") ?? initial[0] ?? null,
  );
  const [error, setError] = useState<string | null>(null);
  const [providerId, setProviderId] = useState("");
  const [model, setModel] = useState("");
  const [path, setPath] = useState("auto");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const watch = useCallback((id: string) => {
    const tick = async () => {
      const { evaluation } = await api<{ evaluation: EvaluationJson }>(`/api/designer/evaluations/${id}`);
      setCurrent(evaluation);
      if (evaluation.status === "running") timer.current = setTimeout(() => void tick(), 1000);
      else setList((await api<{ evaluations: EvaluationJson[] }>("/api/designer/evaluations")).evaluations);
    };
    void tick().catch((e: Error) => setError(e.message));
  }, []);

  useEffect(() => {
    if (current?.status === "running") watch(current.id);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for an evaluation already running when the page opened
  }, []);

  const start = async () => {
    setError(null);
    try {
      const body = { providerId: providerId || null, ...(model.trim() ? { model: model.trim() } : {}), path };
      const { evaluation } = await api<{ evaluation: EvaluationJson }>("/api/designer/evaluations", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      setCurrent(evaluation);
      watch(evaluation.id);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const running = current?.status === "running";
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Evaluate the designer with a provider</CardTitle>
          <CardDescription>
            Runs the designer&apos;s {requests} test requests (new workflows and edits, each with the structure it
            should have) on the provider you choose, one after another, and reports how many end as a valid workflow,
            how many have the expected structure, and the model calls, tokens and time each took. Every request is real
            model traffic on that provider.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
          <FormField label="Provider">
            <Select
              value={providerId}
              onChange={(e) => setProviderId(e.target.value)}
              data-testid="evaluation-provider"
            >
              <option value="">The designer&apos;s model (Settings → Designer model)</option>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Model" hint="Empty = the provider's default model.">
            <Input
              value={model}
              onChange={(e) => setModel(e.target.value)}
              placeholder={providers.find((p) => p.id === providerId)?.defaultModel ?? "Default"}
            />
          </FormField>
          <FormField label="Structured output">
            <Select value={path} onChange={(e) => setPath(e.target.value)} data-testid="evaluation-path">
              {PATHS.map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </FormField>
          <Button onClick={() => void start()} disabled={running} data-testid="evaluation-start">
            Evaluate the designer with this provider
          </Button>
          {error && (
            <p className="text-sm text-red-600 sm:col-span-4" role="alert">
              {error}
            </p>
          )}
        </CardContent>
      </Card>
      {current && (
        <Card data-testid="evaluation-current" data-status={current.status}>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {current.label}
              <Badge tone={current.status === "done" ? "success" : current.status === "failed" ? "danger" : "primary"}>
                {current.status}
              </Badge>
              {running && <Spinner />}
            </CardTitle>
            <CardDescription data-testid="evaluation-progress">
              {current.rows.length} of {current.total} requests · path {current.path} ·{" "}
              {new Date(current.createdAt).toLocaleString()}
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {current.error && <p className="text-sm text-red-600">{current.error}</p>}
            <Summary e={current} />
            <Rows rows={current.rows} />
          </CardContent>
        </Card>
      )}
      {list.length > 1 && (
        <Card>
          <CardHeader>
            <CardTitle>Earlier evaluations</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm">
              {list.map((e) => (
                <li key={e.id}>
                  <button type="button" className="text-left hover:underline" onClick={() => setCurrent(e)}>
                    {new Date(e.createdAt).toLocaleString()} · {e.label} · {e.status}
                    {e.summary
                      ? ` · valid ${pct(e.summary.validShare)}, golden ${pct(e.summary.goldenMatchShare)}, ${e.summary.callsPerRequest.toFixed(2)} calls`
                      : ""}
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
