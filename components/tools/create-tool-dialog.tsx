"use client";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/input";
import { CodeBlock, TestResults } from "./test-results";
import type { CreateStreamEvent, ToolActions } from "./types";

type Round = { round: number; name?: string; code?: string; results?: Extract<CreateStreamEvent, { type: "tests" }> };
type Final = Extract<CreateStreamEvent, { type: "ready" | "reused" | "failed" | "error" }>;

/** Reads an NDJSON response line by line. */
async function* lines(res: Response): AsyncGenerator<CreateStreamEvent> {
  const reader = res.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield JSON.parse(line) as CreateStreamEvent;
    }
    if (done) return;
  }
}

/**
 * "Create tool": describe a tool; the model writes spec, code and tests, the tests run in the sandbox
 * and failures go back to it (≤ 3 rounds), shown live. A passing tool is shown with its code and
 * results for approval; a similar approved tool is reused instead; near-duplicates are flagged.
 */
export function CreateToolDialog({
  open,
  onOpenChange,
  approve,
  onChanged,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  approve: ToolActions["approve"];
  onChanged: () => void;
}) {
  const [request, setRequest] = useState("");
  const [running, setRunning] = useState(false);
  const [rounds, setRounds] = useState<Round[]>([]);
  const [final, setFinal] = useState<Final | null>(null);
  const [offline, setOffline] = useState(false);
  const [approving, setApproving] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const reset = () => {
    setRounds([]);
    setFinal(null);
  };
  const close = (o: boolean) => {
    if (!o) abort.current?.abort();
    onOpenChange(o);
    if (!o) {
      reset();
      setRunning(false);
    }
  };

  const start = async () => {
    reset();
    setRunning(true);
    abort.current = new AbortController();
    try {
      const res = await fetch("/tools/create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ request }),
        signal: abort.current.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        setFinal({ type: "error", message: body.error ?? `Request failed (${res.status})` });
        return;
      }
      for await (const e of lines(res)) {
        if (e.type === "started") setOffline(e.offline === true);
        else if (e.type === "round") setRounds((r) => [...r, { round: e.round }]);
        else if (e.type === "draft")
          setRounds((r) => r.map((x) => (x.round === e.round ? { ...x, name: e.draft.name, code: e.draft.code } : x)));
        else if (e.type === "tests") setRounds((r) => r.map((x) => (x.round === e.round ? { ...x, results: e } : x)));
        else if (e.type === "ready" || e.type === "reused" || e.type === "failed" || e.type === "error") {
          setFinal(e);
          if (e.type !== "error") onChanged();
        }
      }
    } catch (err) {
      if (!(err instanceof DOMException && err.name === "AbortError"))
        setFinal({ type: "error", message: err instanceof Error ? err.message : String(err) });
    } finally {
      setRunning(false);
    }
  };

  const doApprove = async (f: Extract<Final, { type: "ready" }>) => {
    setApproving(true);
    const r = await approve(f.versionId, f.codeHash);
    setApproving(false);
    if (r.ok) {
      toast.success(r.message);
      onChanged();
      close(false);
    } else toast.error(r.message);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create tool"
      className="w-[min(52rem,calc(100vw-2rem))]"
      description="Describe what the tool should do. A model writes the code and tests; the tests run in the sandbox (up to 3 rounds). Nothing runs in workflows until you approve the exact code."
    >
      <div className="grid gap-4" data-testid="create-tool-dialog">
        <FormField label="What should the tool do?">
          <Textarea
            value={request}
            onChange={(e) => setRequest(e.target.value)}
            rows={3}
            disabled={running}
            data-testid="create-tool-request"
            placeholder="Compute compound annual growth rate from a start value, an end value and a number of years"
          />
        </FormField>
        <div className="flex justify-end gap-2">
          {running && (
            <Button variant="ghost" onClick={() => abort.current?.abort()}>
              Stop
            </Button>
          )}
          <Button
            onClick={() => void start()}
            loading={running}
            disabled={request.trim().length < 10}
            data-testid="create-tool-start"
          >
            {rounds.length ? "Try again" : "Write the tool"}
          </Button>
        </div>
        {offline && (
          <p
            role="note"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
            data-testid="create-tool-offline"
          >
            Offline demo model: no model provider is connected, so the tool comes from the demo&apos;s few scripted
            ones, the closest to your description. Add a provider in Settings to have any tool written.
          </p>
        )}
        {rounds.length > 0 && (
          <ol className="grid gap-3" data-testid="create-tool-rounds">
            {rounds.map((r) => {
              const passed = r.results?.results.filter((x) => x.passed).length ?? 0;
              const total = r.results?.results.length ?? 0;
              return (
                <li
                  key={r.round}
                  className="grid gap-2 rounded-md border border-border p-3"
                  data-testid="create-tool-round"
                >
                  <div className="flex items-center gap-2 text-sm">
                    <span className="font-medium">Round {r.round}</span>
                    {r.name && <span className="font-mono text-xs">{r.name}</span>}
                    {!r.code && <span className="text-xs text-muted">writing…</span>}
                    {r.code && !r.results && <span className="text-xs text-muted">testing in the sandbox…</span>}
                    {r.results && (
                      <Badge tone={passed === total ? "success" : "danger"}>
                        {passed}/{total} tests pass
                      </Badge>
                    )}
                  </div>
                  {r.results && passed !== total && <TestResults results={r.results.results} />}
                </li>
              );
            })}
          </ol>
        )}
        {final?.type === "reused" && (
          <p
            role="status"
            className="rounded-md border border-primary/30 bg-primary/10 px-3 py-2 text-sm"
            data-testid="create-tool-reused"
          >
            An approved tool already does this: <span className="font-mono">{final.name}</span> (similarity{" "}
            {final.score.toFixed(2)}). It is reused; no code was written.
          </p>
        )}
        {final?.type === "failed" && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
            Not created: {final.error}.
          </p>
        )}
        {final?.type === "error" && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
            {final.message}
          </p>
        )}
        {final?.type === "ready" && (
          <div className="grid gap-3" data-testid="create-tool-ready">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-mono font-medium">{final.name}</span>
              <Badge>v{final.version}</Badge>
              <Badge tone="success">all tests pass (round {final.rounds})</Badge>
              <Badge tone="warning">awaiting your approval</Badge>
              <span className="font-mono text-xs text-muted" title={final.codeHash}>
                sha256 {final.codeHash.slice(0, 12)}…
              </span>
            </div>
            {final.nearDuplicates.length > 0 && (
              <p
                className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm"
                data-testid="create-tool-duplicates"
              >
                Looks like an existing tool:{" "}
                {final.nearDuplicates.map((d) => `${d.name} (${d.score.toFixed(2)})`).join(", ")}. Consider using it
                instead.
              </p>
            )}
            <CodeBlock code={final.code} testId="create-tool-code" />
            <TestResults results={final.results} />
            <div className="flex justify-end gap-2">
              <Button variant="ghost" onClick={() => close(false)}>
                Later
              </Button>
              <Button onClick={() => void doApprove(final)} loading={approving} data-testid="create-tool-approve">
                Approve this code
              </Button>
            </div>
          </div>
        )}
      </div>
    </Dialog>
  );
}
