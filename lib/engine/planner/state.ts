import * as z from "zod";
import { runStatusSchema, tokenUsageSchema } from "../events";

/**
 * The planner's state: everything about a run that is not derivable from its steps (activation
 * inboxes, loop counters, shared budgets). JSON only; stored as Run.state in the same transaction
 * as the step rows and events it belongs to, so resume (R7) sees a consistent picture.
 */

/** What an incoming forward edge delivered in the node's current round: data, or dead-path (R3). */
export const deliverySchema = z.enum(["data", "dead"]);
export type Delivery = z.infer<typeof deliverySchema>;

/**
 * `waiting`: a human review asked its question and waits for an answer (no worker runs it).
 * `retrying`: its try failed and its error policy retries it at `retryAt` (no worker runs it meanwhile).
 */
export const nodePhaseSchema = z.enum([
  "idle",
  "running",
  "waiting",
  "retrying",
  "done",
  "skipped",
  "failed",
  "cancelled",
]);
export type NodePhase = z.infer<typeof nodePhaseSchema>;

/** What a step is started with (stored as Step.input): the edges that delivered data and the loop feedback. */
export const stepInputSchema = z.object({
  /** Forward edges that delivered data (dead ones are not listed). */
  via: z.array(z.string()).default([]),
  /** Loop edge that re-entered the node, if any. */
  loopEdge: z.string().optional(),
  /** The loop source's output (rendered as {{feedback}}). */
  feedback: z.unknown().optional(),
  /**
   * How the step's side-effect keys are formed: 2 = an orchestrator's worker calls are scoped by
   * their handoff (executors/orchestrator.ts). Absent on steps started before: a re-dispatch of such
   * a step keeps the keys its first attempt recorded effects under.
   */
  effectKeys: z.literal(2).optional(),
  /** A map's item step: the map node, the item's 0-based index and the item ({{item}}). */
  item: z.object({ map: z.string(), index: z.number().int().nonnegative(), value: z.unknown() }).optional(),
  /** An agent step continuing after the owner answered the approval of a tool it wrote (choice approve / reject). */
  approval: z.object({ choice: z.string(), comment: z.string().optional() }).optional(),
});
export type StepInput = z.infer<typeof stepInputSchema>;

/**
 * One interrupted attempt of a step (R7: its worker stopped before committing a result) and what the
 * driver knew of that worker. Only `crashed` ones count toward the crash-loop cap (D3): a worker that
 * was still alive after the takeover (it lost its queue lock while starved or frozen, or it handed the
 * step back on shutdown) did not die of the step. `pending` = not known yet (re-judged at the next resume).
 */
export const interruptionSchema = z.object({
  iteration: z.number().int().positive(),
  attempt: z.number().int().positive(),
  /** Lease owner of the interrupted attempt; null when unknown. */
  owner: z.string().nullable().default(null),
  /** The owner's last heartbeat seen at the takeover (ms since the epoch), or the takeover time when none was seen. */
  since: z.number().default(0),
  verdict: z.enum(["crashed", "alive", "pending"]).default("crashed"),
});
export type Interruption = z.infer<typeof interruptionSchema>;

/**
 * A map node's items while they run (map.ts): the list, which items are open (0-based index → the
 * attempt of its running try) and which finished (output, or error). Cleared when the map finishes:
 * its output then holds the results.
 */
export const mapStateSchema = z.object({
  /** The node id its item steps are stored under (lib/workflow/map.ts mapItemsId). */
  stepId: z.string(),
  items: z.array(z.unknown()),
  concurrency: z.number().int().positive(),
  /** The next item to start (0-based). */
  next: z.number().int().nonnegative().default(0),
  open: z.record(z.string(), z.number().int().positive()).default({}),
  finished: z
    .record(z.string(), z.object({ output: z.unknown().optional(), error: z.string().optional() }))
    .default({}),
});
export type MapState = z.infer<typeof mapStateSchema>;

export const nodeStateSchema = z.object({
  phase: nodePhaseSchema.default("idle"),
  /** Last iteration used by a step or skip of this node (0 = never activated). */
  iteration: z.number().int().nonnegative().default(0),
  /** Attempt of the current/last step (bumped when a crashed step is re-dispatched). */
  attempt: z.number().int().nonnegative().default(0),
  /** Deliveries waiting for the next activation, by incoming edge id. */
  inbox: z.record(z.string(), deliverySchema).default({}),
  /** join=any: incoming edges whose next delivery belongs to a round that already fired, so is swallowed. */
  absorb: z.array(z.string()).default([]),
  /** Input of the running step (re-used when it is re-dispatched). */
  input: stepInputSchema.optional(),
  /** Output and branch of the last successful step. */
  output: z.unknown().optional(),
  branch: z.string().optional(),
  /** Set when this node's outgoing loop was exhausted and the run continued along another branch. */
  loopExhausted: z.boolean().optional(),
  /** Interruptions of the current iteration's attempts (see interruptionSchema); absent when none. */
  interruptions: z.array(interruptionSchema).optional(),
  /** Error-policy retries of the current iteration so far (absent: none); the try running is number retry + 1. */
  retry: z.number().int().positive().optional(),
  /** Phase `retrying`: when the next try is due (ms since the epoch). */
  retryAt: z.number().optional(),
  /** A map node whose items run (its own step started them; it stays `running` until they are done). */
  map: mapStateSchema.optional(),
});
export type NodeState = z.infer<typeof nodeStateSchema>;

export const plannerStateSchema = z.object({
  v: z.literal(1).default(1),
  status: runStatusSchema.default("running"),
  reason: z.string().optional(),
  limit: z.string().optional(),
  outputs: z.record(z.string(), z.unknown()).optional(),
  /** Steps started (re-dispatches of a crashed step do not count again); shared by all branches (R6). */
  stepsStarted: z.number().int().nonnegative().default(0),
  tokens: tokenUsageSchema.default({ promptTokens: 0, completionTokens: 0 }),
  /** The end node reached and its outputs; the run succeeds once no step is running (R9). */
  endReached: z.object({ nodeId: z.string(), outputs: z.record(z.string(), z.unknown()) }).optional(),
  nodes: z.record(z.string(), nodeStateSchema).default({}),
  /** Loop edge id → the loop's current iteration (1 = the first pass, before any re-entry). */
  loops: z.record(z.string(), z.number().int().positive()).default({}),
  /** Edge id → what it delivered last (re-used to re-arm joins when a loop re-enters a region). */
  lastDelivery: z.record(z.string(), deliverySchema).default({}),
  /** A run reusing another's results (reuse.ts): the nodes whose output this run produced itself; absent otherwise. */
  fresh: z.array(z.string()).optional(),
});
export type PlannerState = z.infer<typeof plannerStateSchema>;

/** Parses stored planner state; null/{}/garbage-free empty object means "never started". */
export function parsePlannerState(raw: unknown): PlannerState | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "object" && Object.keys(raw as object).length === 0) return null;
  return plannerStateSchema.parse(raw);
}

/** Whether a node's current step is still open: running, a human review waiting for its answer, or waiting for its retry. */
export const isBusy = (n: NodeState): boolean =>
  n.phase === "running" || n.phase === "waiting" || n.phase === "retrying";

/**
 * The nodes a planning step may change in place: those it copied or created (copy-on-write, see
 * copyState). A state that copyState did not make has no entry and is changed in place.
 */
const ownedNodes = new WeakMap<PlannerState, WeakSet<NodeState>>();

/**
 * The state of a node, to read or change: created idle on first access; in a state made by
 * copyState, copied on its first access (with its inbox and absorb list), so the state it was
 * copied from never changes.
 */
export function nodeState(state: PlannerState, nodeId: string): NodeState {
  const owned = ownedNodes.get(state);
  let found = state.nodes[nodeId];
  if (!found) {
    found = { phase: "idle", iteration: 0, attempt: 0, inbox: {}, absorb: [] };
    state.nodes[nodeId] = found;
    owned?.add(found);
  } else if (owned && !owned.has(found)) {
    found = { ...found, inbox: { ...found.inbox }, absorb: [...found.absorb] };
    state.nodes[nodeId] = found;
    owned.add(found);
  }
  return found;
}

/**
 * Copy-on-plan: a copy the planner can change freely — its maps and counters copied, its nodes
 * copied only when a planning step reaches them through nodeState (a chain step changes two of
 * them; copying all of them on every event was the planner's largest cost in B1's worker) —
 * sharing values it never changes (step outputs, inputs, feedback). Much cheaper than
 * structuredClone on every event, which matters for the per-step overhead (benchmark B1).
 */
export function copyState(s: PlannerState): PlannerState {
  const copy = {
    ...s,
    tokens: { ...s.tokens },
    nodes: { ...s.nodes },
    loops: { ...s.loops },
    lastDelivery: { ...s.lastDelivery },
  };
  ownedNodes.set(copy, new WeakSet());
  return copy;
}
