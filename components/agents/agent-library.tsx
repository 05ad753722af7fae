"use client";
import { useCallback, useState, useTransition } from "react";
import { toastOutcome } from "@/components/ui/action-result";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { BotIcon, PencilIcon, PlusIcon, TrashIcon } from "@/components/ui/icons";
import { AgentForm } from "./agent-form";
import {
  type AgentIdAction,
  type AgentRow,
  type ProviderOption,
  type SaveAgentAction,
  type ToolOption,
  modelText,
} from "./types";

type Editing = { mode: "add" } | { mode: "edit"; agent: AgentRow } | null;

interface Props {
  agents: AgentRow[];
  providers: ProviderOption[];
  tools: ToolOption[];
  save: SaveAgentAction;
  duplicate: AgentIdAction;
  remove: AgentIdAction;
}

/** The saved agents as cards, with create/edit dialogs, duplicate and delete (confirmed). */
export function AgentLibrary({ agents, providers, tools, save, duplicate, remove }: Props) {
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AgentRow | null>(null);
  const [pending, startTransition] = useTransition();
  const close = useCallback(() => setEditing(null), []);

  const run = (action: AgentIdAction, id: string, after?: () => void) =>
    startTransition(async () => {
      const r = await action(id);
      after?.();
      toastOutcome(r);
    });

  return (
    <section aria-label="Saved agents" className="grid gap-4">
      <div className="flex justify-end">
        <Button onClick={() => setEditing({ mode: "add" })} data-testid="agent-new">
          <PlusIcon /> New agent
        </Button>
      </div>
      {agents.length === 0 ? (
        <EmptyState
          icon={<BotIcon width={20} height={20} />}
          title="No saved agents"
          description="Create an agent once — instructions, model and tools — and drag it into any workflow from the editor's palette."
        >
          <Button variant="outline" onClick={() => setEditing({ mode: "add" })}>
            Create an agent
          </Button>
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="agent-list">
          {agents.map((a) => (
            <li key={a.id}>
              <Card className="flex h-full flex-col gap-2 p-4" data-testid="agent-card" data-agent-id={a.id}>
                <div className="flex items-start justify-between gap-2">
                  <h2 className="truncate text-sm font-semibold" data-testid="agent-card-name">
                    {a.name}
                  </h2>
                  <Badge>{modelText(a.model, providers)}</Badge>
                </div>
                {a.description && <p className="line-clamp-2 text-sm text-muted">{a.description}</p>}
                {a.instructions && (
                  <p className="line-clamp-3 whitespace-pre-wrap text-xs text-muted">{a.instructions}</p>
                )}
                <div className="flex flex-wrap gap-1">
                  {a.tools.length === 0 ? (
                    <span className="text-xs text-muted">No tools</span>
                  ) : (
                    a.tools.map((t) => (
                      <Badge key={t.name} tone="primary" className="font-mono">
                        {t.name}
                      </Badge>
                    ))
                  )}
                </div>
                <div className="mt-auto flex justify-end gap-1 pt-2">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setEditing({ mode: "edit", agent: a })}
                    aria-label={`Edit ${a.name}`}
                  >
                    <PencilIcon /> Edit
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={pending}
                    onClick={() => run(duplicate, a.id)}
                    aria-label={`Duplicate ${a.name}`}
                  >
                    Duplicate
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(a)} aria-label={`Delete ${a.name}`}>
                    <TrashIcon />
                  </Button>
                </div>
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => !o && close()}
        title={editing?.mode === "edit" ? `Edit ${editing.agent.name}` : "New agent"}
        className="w-[min(44rem,calc(100vw-2rem))]"
      >
        {editing && (
          <AgentForm
            key={editing.mode === "edit" ? editing.agent.id : "new"}
            agent={editing.mode === "edit" ? editing.agent : undefined}
            providers={providers}
            tools={tools}
            action={save}
            onDone={close}
          />
        )}
      </Dialog>
      <Dialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "agent"}?`}
        description="Workflows that already use it keep their own copy of its instructions and tools."
        footer={
          <>
            <Button variant="ghost" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={pending}
              data-testid="agent-delete-confirm"
              onClick={() => deleting && run(remove, deleting.id, () => setDeleting(null))}
            >
              Delete
            </Button>
          </>
        }
      >
        <span />
      </Dialog>
    </section>
  );
}
