"use client";
import { useEffect, useRef, useState } from "react";
import { DIFF_TERMS } from "@/components/terms/words";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { isOffered, proposalNotes, type SimplifyAnswer } from "@/lib/designer/simplify/answer";
import type { EventLine } from "./describe-event";
import { choosableGroups, describeGroup, diffMarks, type PendingProposal } from "./proposal";

/** One chat message: what the user asked, or one streamed designer step. */
/** The dry-run choice of the panel: auto (proposals whose tools have no side effects), always, off. */
export type DryRunChoice = "auto" | "always" | "off";

export type ChatEntry = { id: number; role: "user"; text: string } | { id: number; role: "designer"; line: EventLine };

const TONE: Record<EventLine["tone"], string> = {
  info: "text-muted",
  ok: "text-emerald-700 dark:text-emerald-400",
  warn: "text-amber-700 dark:text-amber-400",
  error: "text-red-700 dark:text-red-400",
};

/** Floating "Designer" button over the canvas while the panel is closed. */
export function DesignerToggle({ onOpen, pending }: { onOpen: () => void; pending: boolean }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="designer-toggle"
      className="absolute right-3 top-3 z-10 rounded-md border border-border bg-surface px-3 py-1.5 text-xs font-medium shadow-sm hover:border-primary"
    >
      ✦ Designer
      {pending && <span className="ml-1 rounded-full bg-amber-400 px-1.5 text-[10px] text-zinc-900">proposal</span>}
    </button>
  );
}

type Props = {
  entries: ChatEntry[];
  running: boolean;
  pending: PendingProposal | null;
  selected: ReadonlySet<string>;
  dryRun: DryRunChoice;
  blank: boolean;
  onDryRun: (choice: DryRunChoice) => void;
  onSend: (message: string) => void;
  onCancel: () => void;
  onToggle: (groupKey: string) => void;
  onAcceptAll: () => void;
  onAcceptSelected: () => void;
  onReject: () => void;
  onClose: () => void;
  /** "Simplify this workflow": the last answer, and which of its proposals the canvas shows. */
  simplifications: { answer: SimplifyAnswer; shown: string | null } | null;
  onSimplify: () => void;
  onShowSimplification: (id: string) => void;
};

/** The designer chat: streamed steps, the pending proposal's changes to accept, and the request box. */
export function DesignerPanel(p: Props) {
  const [text, setText] = useState("");
  const end = useRef<HTMLDivElement>(null);
  // Braces matter: Chromium's scrollIntoView now returns a Promise, and an effect must return nothing or a cleanup.
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [p.entries.length, p.pending]);
  const submit = () => {
    if (!text.trim() || p.running) return;
    p.onSend(text);
    setText("");
  };
  return (
    <aside
      className="flex w-80 shrink-0 flex-col border-l border-border bg-surface"
      aria-label="Designer"
      data-testid="designer-panel"
    >
      <div className="flex items-center justify-between border-b border-border px-3 py-2">
        <span className="text-sm font-semibold">Designer</span>
        <Button
          size="sm"
          variant="outline"
          onClick={p.onSimplify}
          disabled={p.running || p.blank}
          data-testid="designer-simplify"
          title="Propose merges of steps whose roles overlap; with a dataset, each merge is run against the original and kept only if its score holds"
        >
          Simplify this workflow
        </Button>
        <button
          type="button"
          className="text-xs text-muted hover:text-foreground"
          onClick={p.onClose}
          data-testid="designer-close"
        >
          Hide
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-3 text-xs" data-testid="designer-messages" aria-live="polite">
        {p.entries.length === 0 && (
          <p className="text-muted">
            {p.blank
              ? "Describe the system you want: its inputs, the agents and how they hand work to each other."
              : "Ask for a change, e.g. “add a fact-checker between the writer and the end”."}{" "}
            Proposals appear on the canvas as a diff; nothing changes until you accept.
          </p>
        )}
        <ul className="grid gap-1.5">
          {p.entries.map((e) =>
            e.role === "user" ? (
              <li key={e.id} className="ml-6 rounded-md bg-primary/10 px-2 py-1.5" data-testid="designer-user-message">
                {e.text}
              </li>
            ) : (
              <li key={e.id} className={TONE[e.line.tone]} data-testid="designer-event" data-type={e.line.type}>
                {e.line.text}
                {e.line.details.length > 0 && (
                  <ul className="ml-3 mt-0.5 list-disc pl-2">
                    {e.line.details.slice(0, 12).map((d, i) => (
                      <li key={i} className="break-words">
                        {d}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ),
          )}
        </ul>
        {p.running && (
          <p className="mt-2 flex items-center gap-2 text-muted">
            <Spinner className="h-3 w-3" /> Working…
          </p>
        )}
        {p.simplifications && <SimplifyList {...p} simplifications={p.simplifications} />}
        {p.pending && <ProposalCard {...p} pending={p.pending} />}
        <div ref={end} />
      </div>
      <div className="grid gap-2 border-t border-border p-3">
        <Textarea
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={3}
          maxLength={4000}
          data-testid="designer-input"
          placeholder={p.blank ? "Describe the system you want…" : "Describe a change…"}
          aria-label="Message to the designer"
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div className="flex items-center justify-between gap-2">
          <label
            className="flex items-center gap-1.5 text-xs text-muted"
            title="Run the proposal once on sample inputs the model writes, and repair it if the run fails. Auto: only proposals whose tools have no side effects; Always: tools with side effects are skipped"
          >
            Dry run
            <select
              value={p.dryRun}
              onChange={(e) => p.onDryRun(e.target.value as DryRunChoice)}
              data-testid="designer-dry-run"
              className="rounded border border-border bg-surface px-1 py-0.5 text-xs"
            >
              <option value="auto">auto</option>
              <option value="always">always</option>
              <option value="off">off</option>
            </select>
          </label>
          {p.running ? (
            <Button size="sm" variant="outline" onClick={p.onCancel} data-testid="designer-cancel">
              Cancel
            </Button>
          ) : (
            <Button size="sm" onClick={submit} disabled={!text.trim()} data-testid="designer-send">
              Send
            </Button>
          )}
        </div>
      </div>
    </aside>
  );
}

function ProposalCard({
  pending,
  selected,
  onToggle,
  onAcceptAll,
  onAcceptSelected,
  onReject,
}: Props & { pending: PendingProposal }) {
  const groups = choosableGroups(pending.groups);
  const marks = diffMarks(pending.base, pending.groups);
  const counts = { added: 0, changed: 0, removed: 0 };
  for (const id of new Set([...pending.proposal.nodes, ...pending.base.nodes].map((n) => n.id))) {
    const m = marks.get(id);
    if (m) counts[m] += 1;
  }
  return (
    <section
      className="mt-3 grid gap-2 rounded-md border border-amber-400 bg-amber-50 p-2 dark:bg-amber-950/30"
      data-testid="designer-proposal"
      aria-label="Proposal"
    >
      <div className="font-medium">Proposal: {pending.summary}</div>
      {pending.notes && pending.notes.length > 0 && (
        <ul className="grid gap-0.5 text-muted" data-testid="designer-proposal-notes">
          {pending.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-1" data-testid="designer-counts">
        {(["added", "changed", "removed"] as const).map((m) => (
          <Badge key={m} tone={DIFF_TERMS[m].tone}>
            {counts[m]} {DIFF_TERMS[m].label}
          </Badge>
        ))}
      </div>
      {pending.toCreate.length > 0 && (
        <div data-testid="designer-to-create">
          <div className="font-medium">Tools to create</div>
          <ul className="ml-3 list-disc pl-2">
            {pending.toCreate.map((t) => (
              <li key={t.name}>
                <code>{t.name}</code>
                {t.purpose && ` — ${t.purpose}`} (used by {t.usedBy.join(", ")})
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="grid gap-1" aria-label="Changes">
        {groups.map((g) => {
          const mark = g.nodeId ? marks.get(g.nodeId) : undefined;
          return (
            <li key={g.key}>
              <label className={cn("flex items-start gap-1.5", !selected.has(g.key) && "opacity-60")}>
                <input
                  type="checkbox"
                  checked={selected.has(g.key)}
                  onChange={() => onToggle(g.key)}
                  data-testid="designer-group"
                  data-key={g.key}
                  className="mt-0.5"
                />
                <span>
                  {describeGroup(g, pending)}
                  {mark && (
                    <Badge tone={DIFF_TERMS[mark].tone} className="ml-1">
                      {DIFF_TERMS[mark].label}
                    </Badge>
                  )}
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <div className="flex flex-wrap gap-1.5">
        <Button size="sm" onClick={onAcceptAll} data-testid="designer-accept-all">
          Accept all
        </Button>
        <Button size="sm" variant="outline" onClick={onAcceptSelected} data-testid="designer-accept-selected">
          Accept selected
        </Button>
        <Button size="sm" variant="ghost" onClick={onReject} data-testid="designer-reject">
          Reject
        </Button>
      </div>
    </section>
  );
}

/** The merges "Simplify this workflow" proposed: saving, verdict, and Show for those offered. */
function SimplifyList({
  simplifications,
  onShowSimplification,
}: Props & { simplifications: NonNullable<Props["simplifications"]> }) {
  const { answer, shown } = simplifications;
  return (
    <section className="mt-3 grid gap-2" data-testid="simplify-list" aria-label="Simplifications">
      {answer.proposals.map((p) => {
        const offered = isOffered(p);
        return (
          <div
            key={p.id}
            className={cn("grid gap-1 rounded-md border p-2", shown === p.id ? "border-primary" : "border-border")}
            data-testid="simplify-proposal"
            data-rule={p.rule}
            data-verdict={p.evaluation ? (p.evaluation.kept ? "kept" : "rejected") : "unevaluated"}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="font-medium">{p.summary}</span>
              {p.evaluation && (
                <Badge tone={p.evaluation.kept ? "success" : "danger"}>{p.evaluation.kept ? "kept" : "rejected"}</Badge>
              )}
            </div>
            <ul className="grid gap-0.5 text-muted">
              {proposalNotes(p, answer).map((n, i) => (
                <li key={i}>{n}</li>
              ))}
            </ul>
            {offered && shown !== p.id && (
              <Button
                size="sm"
                variant="outline"
                onClick={() => onShowSimplification(p.id)}
                data-testid="simplify-show"
                className="justify-self-start"
              >
                Show as diff
              </Button>
            )}
          </div>
        );
      })}
    </section>
  );
}
