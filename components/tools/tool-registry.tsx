"use client";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PlusIcon } from "@/components/ui/icons";
import { CreateToolDialog } from "./create-tool-dialog";
import { CodeBlock, TestResults } from "./test-results";
import type { ToolActions, ToolTestView, ToolVersionView, ToolView } from "./types";

const KIND: Record<ToolView["kind"], string> = { builtin: "Built-in", code: "Created", mcp: "MCP server" };

function approvalBadge(v: ToolVersionView) {
  if (!v.hashOk) return <Badge tone="danger">changed — will not run</Badge>;
  return v.approved ? <Badge tone="success">approved</Badge> : <Badge tone="warning">not approved</Badge>;
}

/** One version: hash, approval, code, recorded tests (re-runnable), approve/revoke. */
function VersionPanel({
  tool,
  v,
  actions,
  busy,
  act,
}: {
  tool: ToolView;
  v: ToolVersionView;
  actions: ToolActions;
  busy: boolean;
  act: (f: () => Promise<{ ok: boolean; message: string }>) => void;
}) {
  const [rerun, setRerun] = useState<ToolTestView[] | null>(null);
  const [testing, setTesting] = useState(false);
  const runTests = async () => {
    setTesting(true);
    const r = await actions.rerunTests(v.id);
    setTesting(false);
    if (r.ok) setRerun(r.results);
    else toast.error(r.message);
  };
  return (
    <div
      className="grid gap-2 rounded-md border border-border p-3"
      data-testid="tool-version"
      data-version={v.version}
      data-approved={String(v.approved)}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">v{v.version}</span>
        {approvalBadge(v)}
        {tool.runningVersion === v.version && <Badge tone="primary">runs</Badge>}
        <span className="font-mono text-xs text-muted" title={v.codeHash} data-testid="tool-hash">
          sha256 {v.codeHash.slice(0, 12)}…
        </span>
        <span className="ml-auto flex gap-1">
          {tool.kind === "code" && v.tests.length > 0 && (
            <Button size="sm" variant="outline" loading={testing} onClick={() => void runTests()}>
              Run tests
            </Button>
          )}
          {v.approved ? (
            <Button
              size="sm"
              variant="outline"
              disabled={busy}
              data-testid="tool-revoke"
              onClick={() => act(() => actions.revoke(v.id))}
            >
              Revoke
            </Button>
          ) : (
            <Button
              size="sm"
              disabled={busy || !v.hashOk}
              data-testid="tool-approve"
              onClick={() => act(() => actions.approve(v.id, v.codeHash))}
            >
              Approve
            </Button>
          )}
        </span>
      </div>
      <CodeBlock code={v.code} testId="tool-code" />
      {tool.kind === "code" && <TestResults results={rerun ?? v.tests} />}
    </div>
  );
}

/** The registry: built-ins, created tools (versions by hash, approval, tests) and MCP servers' tools. */
export function ToolRegistry({ tools, actions }: { tools: ToolView[]; actions: ToolActions }) {
  const router = useRouter();
  const [open, setOpen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [busy, startTransition] = useTransition();
  const act = (f: () => Promise<{ ok: boolean; message: string }>) =>
    startTransition(async () => {
      const r = await f();
      if (r.ok) toast.success(r.message);
      else toast.error(r.message);
      router.refresh();
    });
  const groups: ToolView["kind"][] = ["code", "mcp", "builtin"];
  return (
    // grid-cols-1 is minmax(0, 1fr): a long description truncates instead of widening the page
    <div className="grid grid-cols-1 gap-6">
      <div className="flex justify-end">
        <Button onClick={() => setCreating(true)} data-testid="create-tool">
          <PlusIcon /> Create tool
        </Button>
      </div>
      {groups.map((kind) => {
        const rows = tools.filter((t) => t.kind === kind);
        return (
          <section key={kind} aria-label={KIND[kind]} className="grid grid-cols-1 gap-2">
            <h2 className="text-sm font-semibold">
              {kind === "code" ? "Created tools" : kind === "mcp" ? "MCP servers" : "Built-in tools"}
            </h2>
            {rows.length === 0 && (
              <p className="text-sm text-muted">
                {kind === "code"
                  ? "None yet: use “Create tool”, or let the designer propose one."
                  : "No MCP servers connected: add one under Settings → MCP servers."}
              </p>
            )}
            {rows.length > 0 && (
              <Card className="divide-y divide-border">
                {rows.map((t) => (
                  <div key={t.key} data-testid="tool-row" data-tool={t.name} data-kind={t.kind}>
                    <button
                      type="button"
                      className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-surface-2/60"
                      aria-expanded={open === t.key}
                      onClick={() => setOpen(open === t.key ? null : t.key)}
                      disabled={t.kind === "builtin"}
                    >
                      <span className="font-mono text-sm">{t.name}</span>
                      {t.kind !== "builtin" &&
                        (t.runningVersion !== undefined ? (
                          <Badge tone="success">v{t.runningVersion} runs</Badge>
                        ) : (
                          <Badge tone="warning">not approved</Badge>
                        ))}
                      {t.kind === "code" &&
                        t.versions[0] &&
                        !t.versions[0].approved &&
                        t.runningVersion !== undefined && (
                          <Badge tone="warning">v{t.versions[0].version} awaits approval</Badge>
                        )}
                      {t.sideEffect && <Badge>side effects</Badge>}
                      {(t.similar?.length ?? 0) > 0 && (
                        <Badge
                          tone="warning"
                          data-testid="tool-similar"
                          title={t.similar!.map((s) => `${s.name} ${s.score}`).join(", ")}
                        >
                          similar to {t.similar![0]!.name}
                        </Badge>
                      )}
                      <span className="min-w-0 flex-1 truncate text-sm text-muted">{t.description}</span>
                    </button>
                    {open === t.key && (
                      <div className="grid gap-3 px-4 pb-4">
                        {t.mcp && (
                          <div className="text-sm">
                            {t.mcp.tools && (
                              <p>
                                Tools:{" "}
                                {t.mcp.tools.map((x) => (
                                  <Badge key={x.name} className="mr-1 font-mono" title={x.description}>
                                    {t.name}__{x.name}
                                  </Badge>
                                ))}
                              </p>
                            )}
                            {t.mcp.error && <p className="text-danger">Unreachable: {t.mcp.error}</p>}
                          </div>
                        )}
                        {t.versions.map((v) => (
                          <VersionPanel key={v.id} tool={t} v={v} actions={actions} busy={busy} act={act} />
                        ))}
                        {t.id && (
                          <div className="flex justify-end">
                            <Button
                              size="sm"
                              variant="danger"
                              disabled={busy}
                              onClick={() =>
                                window.confirm(`Delete ${t.name} and all its versions?`) &&
                                act(() => actions.remove(t.id!))
                              }
                            >
                              Delete tool
                            </Button>
                          </div>
                        )}
                      </div>
                    )}
                  </div>
                ))}
              </Card>
            )}
          </section>
        );
      })}
      <CreateToolDialog
        open={creating}
        onOpenChange={setCreating}
        approve={actions.approve}
        onChanged={() => router.refresh()}
      />
    </div>
  );
}
