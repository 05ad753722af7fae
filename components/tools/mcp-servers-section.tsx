"use client";
import { useActionState, useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { PlugIcon, PlusIcon, TrashIcon } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { McpActions, ToolActionResult, ToolView } from "./types";

function McpForm({
  save,
  stdioEnabled,
  credentials,
  onDone,
}: {
  save: McpActions["save"];
  stdioEnabled: boolean;
  credentials: string[];
  onDone: () => void;
}) {
  const [state, action, pending] = useActionState<ToolActionResult | null, FormData>(save, null);
  const [transport, setTransport] = useState<"stdio" | "http">(stdioEnabled ? "stdio" : "http");
  useEffect(() => {
    if (state?.ok) {
      toast.success(state.message);
      onDone();
    }
  }, [state, onDone]);
  const errors = state && !state.ok ? (state.fieldErrors ?? {}) : {};
  return (
    <ActionForm action={action} pending={pending} className="grid gap-4" noValidate data-testid="mcp-form">
      {state && !state.ok && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="Name" error={errors.name} hint="Its tools appear as <name>__<tool>.">
        <Input name="name" placeholder="files" required autoFocus data-testid="mcp-name" />
      </FormField>
      <FormField label="Transport" error={errors.transport}>
        <Select
          name="transport"
          value={transport}
          onChange={(e) => setTransport(e.target.value as "stdio" | "http")}
          data-testid="mcp-transport"
        >
          <option value="http">Streamable HTTP URL</option>
          <option value="stdio" disabled={!stdioEnabled}>
            stdio command{stdioEnabled ? "" : " (disabled on this server)"}
          </option>
        </Select>
      </FormField>
      {transport === "stdio" ? (
        <>
          <FormField
            label="Command"
            error={errors.command}
            hint="Runs on the Weft host with only PATH in its environment."
          >
            <Input name="command" placeholder="npx" data-testid="mcp-command" />
          </FormField>
          <FormField label="Arguments" error={errors.args} hint='Separated by spaces; "quote" arguments with spaces.'>
            <Input name="args" placeholder="-y @modelcontextprotocol/server-everything" data-testid="mcp-args" />
          </FormField>
        </>
      ) : (
        <FormField
          label="URL"
          error={errors.url}
          hint="Checked by the SSRF guard: private and loopback addresses are refused."
        >
          <Input name="url" type="url" placeholder="https://mcp.example.com/mcp" data-testid="mcp-url" />
        </FormField>
      )}
      {transport === "http" && (
        <FormField
          label="Credential"
          error={errors.credential}
          hint="Sent with every request (a bearer token, basic auth or a header from Credentials above)."
        >
          <Select name="credential" defaultValue="" data-testid="mcp-credential">
            <option value="">None</option>
            {credentials.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </FormField>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton data-testid="mcp-save">Connect</SubmitButton>
      </div>
    </ActionForm>
  );
}

/** Settings → MCP servers: connect external servers (stdio command or HTTP URL) whose tools join the registry. */
export function McpServersSection({
  servers,
  actions,
  stdioEnabled,
  credentials = [],
}: {
  servers: ToolView[];
  actions: McpActions;
  stdioEnabled: boolean;
  /** Names in the credentials vault an HTTP server may send. */
  credentials?: string[];
}) {
  const [adding, setAdding] = useState(false);
  const [pending, startTransition] = useTransition();
  const remove = (id: string) =>
    startTransition(async () => {
      const r = await actions.remove(id);
      if (r.ok) toast.success(r.message);
      else toast.error(r.message);
    });
  return (
    <section aria-labelledby="mcp-heading" className="grid grid-cols-1 gap-4">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="mcp-heading" className="text-base font-semibold">
            MCP servers
          </h2>
          <p className="text-sm text-muted">
            External Model Context Protocol servers; their tools join your registry. Changing a connection needs
            approval again.
          </p>
        </div>
        <Button onClick={() => setAdding(true)} data-testid="mcp-add">
          <PlusIcon /> Add MCP server
        </Button>
      </div>
      {servers.length === 0 ? (
        <p className="flex items-center gap-2 text-sm text-muted">
          <PlugIcon /> No MCP servers connected.
        </p>
      ) : (
        <Card className="divide-y divide-border">
          {servers.map((s) => (
            <div
              key={s.key}
              className="flex items-center gap-3 px-4 py-3 text-sm"
              data-testid="mcp-row"
              data-name={s.name}
            >
              <span className="font-mono font-medium">{s.name}</span>
              {s.runningVersion !== undefined ? (
                <Badge tone="success">approved</Badge>
              ) : (
                <Badge tone="warning">not approved</Badge>
              )}
              <span className="min-w-0 flex-1 truncate font-mono text-xs text-muted">
                {s.mcp?.config
                  ? s.mcp.config.transport === "stdio"
                    ? `${s.mcp.config.command} ${s.mcp.config.args.join(" ")}`
                    : `${s.mcp.config.url}${s.mcp.config.credential ? ` · credential ${s.mcp.config.credential}` : ""}`
                  : "invalid config"}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${s.name}`}
                disabled={pending}
                onClick={() => s.id && remove(s.id)}
              >
                <TrashIcon />
              </Button>
            </div>
          ))}
        </Card>
      )}
      <Dialog open={adding} onOpenChange={setAdding} title="Add MCP server">
        {adding && (
          <McpForm
            save={actions.save}
            stdioEnabled={stdioEnabled}
            credentials={credentials}
            onDone={() => setAdding(false)}
          />
        )}
      </Dialog>
    </section>
  );
}
