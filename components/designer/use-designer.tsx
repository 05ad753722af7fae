"use client";
import { useReactFlow } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { toast } from "sonner";
import type { DesignerEvent } from "@/lib/designer/events";
import { isOffered, proposalNotes, type SimplifyAnswer } from "@/lib/designer/simplify/answer";
import type { Workflow } from "@/lib/workflow/schema";
import type { FlowOverlay } from "@/components/editor/flow-mapping";
import type { EditorDocument } from "@/components/editor/use-editor-document";
import { DesignerPanel, DesignerToggle, type ChatEntry, type DryRunChoice } from "./designer-panel";

type NewEntry = { role: "user"; text: string } | { role: "designer"; line: EventLine };
import { describeEvent, OFFLINE_DESIGNER_NOTICE, type EventLine } from "./describe-event";
import {
  acceptGroups,
  choosableGroups,
  isBlankDocument,
  placeholderIssues,
  previewDocument,
  proposalGroups,
  toggleGroup,
  type PendingProposal,
} from "./proposal";
import { streamDesign, type DesignerModelInfo } from "./stream";

/** Query parameter the "Describe the system you want" start screen hands its request over with. */
export const DESCRIBE_PARAM = "describe";

export type DesignerView = {
  /** While a proposal is pending, what the canvas shows instead of the document (read-only). */
  preview?: { doc: Workflow; overlay: FlowOverlay };
  /** The floating button that opens the panel (inside the canvas area). */
  toggle: ReactNode;
  /** The chat panel column (null while closed). */
  panel: ReactNode;
};

/** CSS for edge highlights (edge components colour added/changed; removed edges are dashed red here). */
function edgeDiffCss(marks: ReadonlyMap<string, string>): string {
  const colour: Record<string, string> = { added: "#10b981", changed: "#f59e0b", removed: "#ef4444" };
  return [...marks]
    .filter(([id]) => /^[A-Za-z0-9_-]+$/.test(id))
    .map(
      ([id, mark]) =>
        `.react-flow__edge[data-id="${id}"] .react-flow__edge-path{stroke:${colour[mark]}!important;stroke-width:2.5px!important;${mark === "removed" ? "stroke-dasharray:6 4;" : ""}}`,
    )
    .join("\n");
}

/**
 * The chat designer inside the editor: streams /api/designer, shows what each stage did, and holds
 * the proposal as a pending diff on the canvas until the user accepts it (all, or change by change:
 * one undoable step) or rejects it. Nothing is saved by the designer.
 */
export function useDesigner({ workflowId, editor }: { workflowId: string; editor: EditorDocument }): DesignerView {
  const flow = useReactFlow();
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [running, setRunning] = useState<AbortController | null>(null);
  const [pending, setPending] = useState<PendingProposal | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dryRun, setDryRun] = useState<DryRunChoice>("auto");
  const [simplifications, setSimplifications] = useState<{ answer: SimplifyAnswer; shown: string | null } | null>(null);
  const docRef = useRef(editor.doc);
  docRef.current = editor.doc;
  const nextId = useRef(0);

  const fit = useCallback(() => {
    // After React Flow has measured the new nodes (fitView ignores unmeasured ones).
    setTimeout(() => void flow.fitView({ duration: 300, maxZoom: 1, padding: 0.15 }), 150);
  }, [flow]);

  const offlineNoticed = useRef(false);
  const push = useCallback((entry: NewEntry) => {
    const id = nextId.current++;
    setEntries((list) => [...list, { ...entry, id } as ChatEntry]);
  }, []);

  const onEvent = useCallback(
    (event: DesignerEvent, base: Workflow) => {
      if (event.type === "drafting") {
        // the summary being written grows in ONE chat line (the last one, while it is the drafting line)
        const line = describeEvent(event);
        return setEntries((list) => {
          const last = list.at(-1);
          if (last?.role === "designer" && last.line.type === "drafting")
            return [...list.slice(0, -1), { ...last, line }];
          return [...list, { role: "designer", line, id: nextId.current++ } as ChatEntry];
        });
      }
      push({ role: "designer", line: describeEvent(event) });
      if (event.type !== "done") return;
      const { workflow, toCreate, summary } = event.result;
      const groups = proposalGroups(base, workflow, event.result);
      setPending({ base, proposal: workflow, groups, summary, toCreate });
      setSelected(new Set(choosableGroups(groups).map((g) => g.key)));
      fit();
    },
    [push, fit],
  );

  const send = useCallback(
    async (message: string) => {
      const text = message.trim();
      if (!text || running) return;
      setOpen(true);
      setPending(null);
      setSimplifications(null);
      push({ role: "user", text });
      const base = docRef.current;
      const controller = new AbortController();
      setRunning(controller);
      try {
        const body = {
          message: text,
          workflowId,
          ...(isBlankDocument(base) ? {} : { workflow: base }),
          ...(dryRun === "auto" ? {} : { dryRun: dryRun === "always" }),
        };
        // said once per editor visit: the offline demo's scripted model designs (no provider connected)
        const onModel = (model: DesignerModelInfo) => {
          if (!model.offline || offlineNoticed.current) return;
          offlineNoticed.current = true;
          push({ role: "designer", line: OFFLINE_DESIGNER_NOTICE });
        };
        for await (const event of streamDesign(body, controller.signal, undefined, onModel)) onEvent(event, base);
      } catch (e) {
        if (controller.signal.aborted)
          push({ role: "designer", line: { type: "failed", tone: "warn", text: "Cancelled.", details: [] } });
        else
          push({ role: "designer", line: { type: "failed", tone: "error", text: (e as Error).message, details: [] } });
      } finally {
        setRunning(null);
      }
    },
    [running, workflowId, dryRun, push, onEvent],
  );

  /** Shows one of the simplifications as the pending proposal (a diff to accept like the designer's). */
  const showSimplification = useCallback(
    (answer: SimplifyAnswer, id: string, base: Workflow) => {
      const p = answer.proposals.find((x) => x.id === id);
      if (!p || !isOffered(p)) return;
      const groups = proposalGroups(base, p.workflow, { base, changes: p.changes });
      setPending({
        base,
        proposal: p.workflow,
        groups,
        summary: p.summary,
        toCreate: [],
        notes: proposalNotes(p, answer),
      });
      setSelected(new Set(choosableGroups(groups).map((g) => g.key)));
      setSimplifications({ answer, shown: id });
      fit();
    },
    [fit],
  );

  const simplify = useCallback(async () => {
    if (running) return;
    setOpen(true);
    setPending(null);
    setSimplifications(null);
    push({ role: "user", text: "Simplify this workflow" });
    push({
      role: "designer",
      line: {
        type: "stage_started",
        tone: "info",
        text: "Looking for merges; with a dataset, each is run against the original…",
        details: [],
      },
    });
    const base = docRef.current;
    const controller = new AbortController();
    setRunning(controller);
    try {
      const res = await fetch(`/api/workflows/${encodeURIComponent(workflowId)}/simplify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ workflow: base }),
        signal: controller.signal,
      });
      const body = (await res.json().catch(() => null)) as (SimplifyAnswer & { error?: { message?: string } }) | null;
      if (!res.ok || !body) throw new Error(body?.error?.message ?? `Simplify failed (${res.status}).`);
      const kept = body.proposals.filter(isOffered);
      const e = body.evaluation;
      push({
        role: "designer",
        line: {
          type: "done",
          tone: body.proposals.length === 0 ? "info" : kept.length ? "ok" : "warn",
          text:
            body.proposals.length === 0
              ? "Nothing to merge: no steps overlap."
              : e
                ? `${body.proposals.length} merge(s) proposed, ${kept.length} kept by the evaluation on "${e.datasetName}" (${e.rows} rows, tolerance ${e.tolerance}; original score ${e.original.score}, ${e.original.calls} calls).`
                : `${body.proposals.length} merge(s) proposed (not evaluated: the workflow has no dataset).`,
          details: [],
        },
      });
      setSimplifications({ answer: body, shown: null });
      if (kept[0]) showSimplification(body, kept[0].id, base);
    } catch (err) {
      push({
        role: "designer",
        line: controller.signal.aborted
          ? { type: "failed", tone: "warn", text: "Cancelled.", details: [] }
          : { type: "failed", tone: "error", text: (err as Error).message, details: [] },
      });
    } finally {
      setRunning(null);
    }
  }, [running, workflowId, push, showSimplification]);

  const cancel = useCallback(() => running?.abort(), [running]);

  // The start screen opens the editor with ?describe=<request>: design it once, then drop the parameter.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const url = new URL(window.location.href);
    const request = url.searchParams.get(DESCRIBE_PARAM);
    if (!request) return;
    url.searchParams.delete(DESCRIBE_PARAM);
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
    void send(request);
  }, [send]);

  const finish = useCallback(
    (doc: Workflow | null, note: string) => {
      if (doc) editor.replace(doc);
      setPending(null);
      // accepted: the document changed, the other merges are stale; rejected: the list stays to pick another
      setSimplifications((s) => (doc || !s ? null : { ...s, shown: null }));
      push({ role: "designer", line: { type: "done", tone: doc ? "ok" : "info", text: note, details: [] } });
      fit();
    },
    [editor, push, fit],
  );

  const accept = useCallback(
    (which: "all" | "selected") => {
      if (!pending) return;
      const keys = which === "all" ? new Set(pending.groups.map((g) => g.key)) : selected;
      const chosen = choosableGroups(pending.groups).filter((g) => keys.has(g.key));
      if (chosen.length === 0) return void toast.error("Select at least one change, or reject the proposal.");
      const r = acceptGroups(editor.doc, pending.groups, keys);
      if (!r.ok) return void toast.error(r.error);
      const total = choosableGroups(pending.groups).length;
      finish(
        r.doc,
        chosen.length === total
          ? `Accepted all ${total} changes (one undo step).`
          : `Accepted ${chosen.length} of ${total} changes (one undo step).`,
      );
    },
    [pending, selected, editor.doc, finish],
  );

  const reject = useCallback(() => finish(null, "Proposal rejected: nothing changed."), [finish]);

  const toggle = useCallback(
    (key: string) => {
      if (pending) setSelected((s) => toggleGroup(pending.groups, s, key));
    },
    [pending],
  );

  const preview = useMemo(() => {
    if (!pending) return undefined;
    const { doc, marks } = previewDocument(pending);
    return {
      doc,
      overlay: { diff: marks, issues: placeholderIssues(pending.proposal, pending.toCreate) } satisfies FlowOverlay,
      marks,
    };
  }, [pending]);

  const css = preview ? edgeDiffCss(preview.marks) : "";
  return {
    preview: preview && { doc: preview.doc, overlay: preview.overlay },
    toggle: open ? null : <DesignerToggle onOpen={() => setOpen(true)} pending={Boolean(pending)} />,
    panel: (
      <>
        {css && <style data-testid="designer-diff-style">{css}</style>}
        {open && (
          <DesignerPanel
            entries={entries}
            running={Boolean(running)}
            pending={pending}
            selected={selected}
            dryRun={dryRun}
            onDryRun={setDryRun}
            onSend={(m) => void send(m)}
            onCancel={cancel}
            onToggle={toggle}
            onAcceptAll={() => accept("all")}
            onAcceptSelected={() => accept("selected")}
            onReject={reject}
            onClose={() => setOpen(false)}
            simplifications={simplifications}
            onSimplify={() => void simplify()}
            onShowSimplification={(id) => simplifications && showSimplification(simplifications.answer, id, editor.doc)}
            blank={isBlankDocument(editor.doc)}
          />
        )}
      </>
    ),
  };
}
