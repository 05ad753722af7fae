"use client";
import { useCallback, useState, useTransition } from "react";
import { timeAgo } from "@/components/workflows/format";
import { toastOutcome } from "@/components/ui/action-result";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { KeyIcon, PlusIcon, TrashIcon } from "@/components/ui/icons";
import { ApiTokenForm } from "./api-token-form";
import type { ApiTokenRow, CreateTokenAction, RevokeTokenAction } from "./types";

interface Props {
  tokens: ApiTokenRow[];
  create: CreateTokenAction;
  revoke: RevokeTokenAction;
}

const When = ({ at, never = "never" }: { at: Date | null; never?: string }) =>
  at ? (
    <time dateTime={at.toISOString()} title={at.toLocaleString("en")}>
      {timeAgo(at)}
    </time>
  ) : (
    <span className="text-muted">{never}</span>
  );

/** API tokens for scripts and MCP clients: create (the secret shown once), list, revoke. */
export function ApiTokensSection({ tokens, create, revoke }: Props) {
  const [creating, setCreating] = useState(false);
  // a new form per opening, so a created token's secret is never shown again
  const [formKey, setFormKey] = useState(0);
  const [revoking, setRevoking] = useState<ApiTokenRow | null>(null);
  const [pending, startTransition] = useTransition();
  const close = useCallback(() => setCreating(false), []);
  const open = () => {
    setFormKey((k) => k + 1);
    setCreating(true);
  };
  const confirmRevoke = (t: ApiTokenRow) =>
    startTransition(async () => {
      const r = await revoke(t.id);
      setRevoking(null);
      toastOutcome(r, "Could not revoke");
    });

  return (
    <section aria-labelledby="api-tokens-heading" className="grid grid-cols-1 gap-4">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="api-tokens-heading" className="text-base font-semibold">
            API tokens
          </h2>
          <p className="text-sm text-muted">
            For scripts and MCP clients: send{" "}
            <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code> to the REST API (
            <code className="font-mono text-xs">/api/workflows</code>,{" "}
            <code className="font-mono text-xs">/api/runs</code>) or to Weft&apos;s MCP endpoint (
            <code className="font-mono text-xs">/api/mcp</code>). A token acts as you.
          </p>
        </div>
        <Button onClick={open}>
          <PlusIcon /> New token
        </Button>
      </div>
      {tokens.length === 0 ? (
        <EmptyState
          icon={<KeyIcon width={20} height={20} />}
          title="No API tokens"
          description="Create one to start runs from a script or connect an MCP client."
        />
      ) : (
        <Card className="relative overflow-x-auto">
          <table className="w-full text-sm">
            <thead className="border-b border-border bg-surface-2/60 text-left text-xs uppercase tracking-wide text-muted">
              <tr>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Name
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Token
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Created
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Last used
                </th>
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {tokens.map((t) => (
                <tr key={t.id} data-testid="api-token-row" className={t.revokedAt ? "text-muted" : undefined}>
                  <td className="px-4 py-3 font-medium">{t.name}</td>
                  <td className="px-4 py-3 font-mono text-xs">weft_••••{t.lastFour}</td>
                  <td className="px-4 py-3">
                    <When at={t.createdAt} />
                  </td>
                  <td className="px-4 py-3">
                    <When at={t.lastUsedAt} />
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end">
                      {t.revokedAt ? (
                        <Badge title={t.revokedAt.toLocaleString("en")}>Revoked</Badge>
                      ) : (
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-danger"
                          aria-label={`Revoke ${t.name}`}
                          onClick={() => setRevoking(t)}
                        >
                          <TrashIcon /> Revoke
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <Dialog
        open={creating}
        onOpenChange={(o) => !o && close()}
        title="New API token"
        description="It can do what you can: start, read and cancel your runs, and call your approved tools over MCP."
      >
        {creating && <ApiTokenForm key={formKey} action={create} onDone={close} />}
      </Dialog>
      <Dialog
        open={revoking !== null}
        onOpenChange={(o) => !o && setRevoking(null)}
        title={`Revoke ${revoking?.name ?? "token"}?`}
        description="Scripts and MCP clients using it are refused from their next request on. This cannot be undone."
        footer={
          <>
            <Button variant="ghost" onClick={() => setRevoking(null)}>
              Cancel
            </Button>
            <Button variant="danger" loading={pending} onClick={() => revoking && confirmRevoke(revoking)}>
              Revoke
            </Button>
          </>
        }
      >
        <p className="font-mono text-sm">weft_••••{revoking?.lastFour}</p>
      </Dialog>
    </section>
  );
}
