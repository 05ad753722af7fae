import type { NodeRunState } from "@/components/editor/flow-mapping";
import type { RunEvent, RunStatus } from "@/lib/engine/events";
import { applyLiveFrame, liveStepField, type LiveFrame, type LiveStepText } from "@/lib/events/live-frame";
import { nowWriting } from "@/components/terms/words";

/**
 * Folds a run's event stream into what the editor overlays on the canvas: a status, iteration and
 * status history per node, tokens so far, the run's status. Pure, so replaying the same events gives
 * the same view. The history keeps states the canvas may never paint (a step's start and finish can
 * arrive in one batch, or be replayed together when the stream connects after the step ran).
 */
export type RunView = {
  status: RunStatus;
  nodes: ReadonlyMap<string, NodeRunState>;
  promptTokens: number;
  completionTokens: number;
  reason?: string;
  lastSeq: number;
};

/** The view before any event: every node pending. */
export function initialRunView(nodeIds: readonly string[]): RunView {
  return {
    status: "queued",
    nodes: new Map(nodeIds.map((id) => [id, { status: "pending", iteration: 1 }])),
    promptTokens: 0,
    completionTokens: 0,
    lastSeq: 0,
  };
}

const NO_HISTORY: readonly NodeRunState["status"][] = [];

function setNode(view: RunView, id: string, patch: Omit<Partial<NodeRunState>, "history">): RunView {
  const nodes = new Map(view.nodes);
  const prev = nodes.get(id) ?? { status: "pending" as const, iteration: 1 };
  const history = prev.history ?? NO_HISTORY;
  // A status change is recorded once (a retried attempt's second step_started is still "running").
  const status = patch.status;
  const changed = status !== undefined && status !== history.at(-1);
  // the live "now writing" line lasts while the step runs; its durable result replaces it
  const { writing: _writing, ...kept } = prev;
  nodes.set(id, {
    ...(status === undefined || status === "running" ? prev : kept),
    ...patch,
    iteration: Math.max(prev.iteration, patch.iteration ?? prev.iteration),
    history: changed ? [...history, status] : history,
  });
  return { ...view, nodes };
}

/** Applies one event (with its sequence number; an already-seen seq is ignored). */
export function applyRunEvent(view: RunView, seq: number, event: RunEvent): RunView {
  if (seq <= view.lastSeq) return view;
  const next = reduce({ ...view, lastSeq: seq }, event);
  return next;
}

function reduce(view: RunView, event: RunEvent): RunView {
  switch (event.type) {
    case "run_started":
      return { ...view, status: "running" };
    case "step_started":
      return setNode(view, event.nodeId, { status: "running", iteration: event.iteration });
    case "step_finished":
      return setNode(view, event.nodeId, { status: event.status, iteration: event.iteration });
    case "map_started":
      return view;
    case "step_retrying":
      // between two tries the step is still under way (its next try is scheduled)
      return setNode(view, event.nodeId, { status: "running", iteration: event.iteration });
    case "branch_taken":
      return event.skipped.reduce((v, id) => setNode(v, id, { status: "skipped" }), view);
    case "loop_iteration":
      return setNode(view, event.target, { iteration: event.iteration });
    case "tokens_used":
      return { ...view, promptTokens: event.runPromptTokens, completionTokens: event.runCompletionTokens };
    case "run_finished":
      return { ...view, status: event.status, reason: event.reason };
    case "input_requested":
    case "subflow_started":
      return setNode(view, event.nodeId, { status: "waiting", iteration: event.iteration });
    case "run_waiting":
      return { ...view, status: "waiting" };
    case "step_progress":
    case "loop_exhausted":
    case "handoff":
    case "cancel_requested":
      return view;
  }
}

/**
 * Folds one live text frame (ephemeral tokens of a running step) into `texts` and shows its tail as
 * the node's "now writing" line while the node's step runs; frames of a step that already ended are
 * kept out of the view.
 */
export function applyLiveText(view: RunView, texts: Map<string, LiveStepText>, frame: LiveFrame): RunView {
  if (!applyLiveFrame(texts, frame)) return view;
  const node = view.nodes.get(frame.nodeId);
  const live = texts.get(liveStepField(frame));
  if (!node || !live || node.status !== "running" || node.iteration !== frame.iteration) return view;
  const nodes = new Map(view.nodes);
  const { writing: _writing, ...rest } = node;
  nodes.set(frame.nodeId, live.done || !(live.text || live.tool) ? rest : { ...node, writing: nowWriting(live) });
  return { ...view, nodes };
}
