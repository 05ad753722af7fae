"use client";
import { useActionState, useEffect, useState, useTransition } from "react";
import { toast } from "sonner";
import { ActionForm } from "@/components/ui/action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";
import { Input, Select } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import type { FormResult } from "./types";

/** A credential as the page shows it: never its value. */
export interface CredentialRow {
  id: string;
  name: string;
  kind: "bearer" | "basic" | "header";
  headerName: string | null;
  last4: string;
}

const KIND_LABEL = { bearer: "Bearer token", basic: "Basic auth", header: "Custom header" } as const;

function CredentialForm({
  save,
  onDone,
}: {
  save: (prev: FormResult, form: FormData) => Promise<FormResult>;
  onDone: () => void;
}) {
  const [state, action, pending] = useActionState<FormResult, FormData>(save, { status: "idle" });
  const [kind, setKind] = useState<CredentialRow["kind"]>("bearer");
  useEffect(() => {
    if (state.status === "ok") {
      toast.success(state.message);
      onDone();
    }
  }, [state, onDone]);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  return (
    <ActionForm action={action} pending={pending} className="grid gap-4" noValidate data-testid="credential-form">
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="Name" error={errors.name} hint="Servers and tools refer to it by this name.">
        <Input name="name" placeholder="github" required autoFocus data-testid="credential-name" />
      </FormField>
      <FormField label="Kind" error={errors.kind}>
        <Select
          name="kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as CredentialRow["kind"])}
          data-testid="credential-kind"
        >
          {(Object.keys(KIND_LABEL) as CredentialRow["kind"][]).map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </Select>
      </FormField>
      {kind === "header" && (
        <FormField label="Header" error={errors.headerName}>
          <Input name="headerName" placeholder="X-API-Key" data-testid="credential-header" />
        </FormField>
      )}
      <FormField
        label={kind === "basic" ? "user:password" : "Secret"}
        error={errors.value}
        hint="Encrypted at rest; after saving only its last four characters are shown."
      >
        <Input name="value" type="password" autoComplete="off" data-testid="credential-value" />
      </FormField>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton data-testid="credential-save">Save</SubmitButton>
      </div>
    </ActionForm>
  );
}

/** Settings → Credentials: the vault of named secrets that HTTP MCP servers send. */
export function CredentialsSection({
  credentials,
  save,
  remove,
}: {
  credentials: CredentialRow[];
  save: (prev: FormResult, form: FormData) => Promise<FormResult>;
  remove: (id: string) => Promise<FormResult>;
}) {
  const [adding, setAdding] = useState(false);
  const [pending, startTransition] = useTransition();
  const del = (id: string) =>
    startTransition(async () => {
      const r = await remove(id);
      if (r.status === "ok") toast.success(r.message);
      else if (r.status === "error") toast.error(r.message ?? "Not deleted.");
    });
  return (
    <section aria-labelledby="credentials-heading" className="grid grid-cols-1 gap-4">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 id="credentials-heading" className="text-base font-semibold">
            Credentials
          </h2>
          <p className="text-sm text-muted">
            Named secrets (API keys, bearer tokens, basic auth, custom headers) that your HTTP MCP servers send. Saving
            a name again replaces its value.
          </p>
        </div>
        <Button onClick={() => setAdding(true)} data-testid="credential-add">
          <PlusIcon /> Add credential
        </Button>
      </div>
      {credentials.length === 0 ? (
        <p className="text-sm text-muted">No credentials yet.</p>
      ) : (
        <Card className="divide-y divide-border">
          {credentials.map((c) => (
            <div
              key={c.id}
              className="flex items-center gap-3 px-4 py-3 text-sm"
              data-testid="credential-row"
              data-name={c.name}
            >
              <span className="font-mono font-medium">{c.name}</span>
              <Badge>{c.kind === "header" ? `${c.headerName}` : KIND_LABEL[c.kind]}</Badge>
              <span className="flex-1 font-mono text-xs text-muted">…{c.last4}</span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Delete ${c.name}`}
                disabled={pending}
                onClick={() => del(c.id)}
              >
                <TrashIcon />
              </Button>
            </div>
          ))}
        </Card>
      )}
      <Dialog open={adding} onOpenChange={setAdding} title="Add credential">
        {adding && <CredentialForm save={save} onDone={() => setAdding(false)} />}
      </Dialog>
    </section>
  );
}
