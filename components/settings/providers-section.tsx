"use client";
import { useCallback, useState, useTransition } from "react";
import { toast } from "sonner";
import { toastOutcome } from "@/components/ui/action-result";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { KeyIcon, PencilIcon, PlugIcon, PlusIcon, TrashIcon } from "@/components/ui/icons";
import { ProviderForm } from "./provider-form";
import {
  type DeleteProviderAction,
  type ProviderRow,
  type SaveProviderAction,
  type TestProviderAction,
  maskedKey,
} from "./types";

type Editing = { mode: "add" } | { mode: "edit"; provider: ProviderRow } | null;

interface Props {
  providers: ProviderRow[];
  save: SaveProviderAction;
  remove: DeleteProviderAction;
  test: TestProviderAction;
}

/** The model providers table with add/edit/delete dialogs and "Test connection". */
export function ProvidersSection({ providers, save, remove, test }: Props) {
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ProviderRow | null>(null);
  const [pending, startTransition] = useTransition();
  const [testing, setTesting] = useState<string | null>(null);
  const close = useCallback(() => setEditing(null), []);

  const runTest = (p: ProviderRow) => {
    setTesting(p.id);
    startTransition(async () => {
      const r = await test(p.id);
      setTesting(null);
      if (r.ok) toast.success(`${p.name}: ${r.message}`);
      else toast.error(`${p.name}: ${r.message}`);
    });
  };
  const confirmDelete = (p: ProviderRow) =>
    startTransition(async () => {
      const r = await remove(p.id);
      setDeleting(null);
      toastOutcome(r, "Could not delete");
    });

  return (
    <section aria-labelledby="providers-heading" className="grid grid-cols-1 gap-4">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="providers-heading" className="text-base font-semibold">
            Model providers
          </h2>
          <p className="text-sm text-muted">OpenAI-compatible endpoints your agents and the designer can call.</p>
        </div>
        <Button onClick={() => setEditing({ mode: "add" })}>
          <PlusIcon /> Add provider
        </Button>
      </div>
      {providers.length === 0 ? (
        <EmptyState
          icon={<KeyIcon width={20} height={20} />}
          title="No providers"
          description="Add an endpoint and key to use a real model."
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
                  Base URL
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  Default model
                </th>
                <th scope="col" className="px-4 py-2.5 font-medium">
                  API key
                </th>
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {providers.map((p) => (
                <tr key={p.id} data-testid="provider-row">
                  <td className="px-4 py-3 font-medium">{p.name}</td>
                  <td className="max-w-64 truncate px-4 py-3 font-mono text-xs text-muted">{p.baseUrl}</td>
                  <td className="px-4 py-3">{p.defaultModel}</td>
                  <td className="px-4 py-3 font-mono text-xs" data-testid="provider-key">
                    {maskedKey(p.apiKeyLast4)}
                  </td>
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-1">
                      <Button
                        size="sm"
                        variant="outline"
                        loading={pending && testing === p.id}
                        onClick={() => runTest(p)}
                      >
                        <PlugIcon /> Test connection
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Edit ${p.name}`}
                        onClick={() => setEditing({ mode: "edit", provider: p })}
                      >
                        <PencilIcon />
                      </Button>
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Delete ${p.name}`}
                        className="text-danger"
                        onClick={() => setDeleting(p)}
                      >
                        <TrashIcon />
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && close()}
        title={editing?.mode === "edit" ? `Edit ${editing.provider.name}` : "Add provider"}
        description="Any OpenAI-compatible API: OpenAI, Ollama, vLLM, LM Studio, OpenRouter."
      >
        {editing && (
          <ProviderForm
            key={editing.mode === "edit" ? editing.provider.id : "new"}
            provider={editing.mode === "edit" ? editing.provider : undefined}
            action={save}
            onDone={close}
          />
        )}
      </Dialog>
      <Dialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "provider"}?`}
        description="Agents that use it fall back to the workflow's default model. The stored key is destroyed."
        footer={
          <>
            <Button variant="ghost" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button variant="danger" loading={pending} onClick={() => deleting && confirmDelete(deleting)}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm">
          Key <span className="font-mono">{maskedKey(deleting?.apiKeyLast4 ?? null)}</span> at{" "}
          <span className="font-mono text-xs">{deleting?.baseUrl}</span>
        </p>
      </Dialog>
    </section>
  );
}
