import * as z from "zod";
import { buildGraph, forwardAncestors } from "../graph";
import { workflowSchema, type Edge, type WorkflowInput } from "../schema";
import { layout, result, uniqueId, type ImportIssue, type ImportResult } from "./common";

/**
 * Imports a MetaAgent finite state machine (docs/workflow-model.md, "Seed formats"): one agent node per state;
 * transitions become branches (a transition back to a state on the path from the initial state, or
 * to itself, is a loop edge with the default cap); the implicit "no condition met" becomes a `stay`
 * self loop; final states lead to `end`; `listener` decides which downstream states receive a
 * state's output in their task.
 */
const text = z.string().default("");
/** The MetaAgent FSM JSON, leniently parsed (missing texts and flags default). */
export const metaAgentFsmSchema = z.object({
  agents: z.array(
    z.object({
      agent_id: z.string().min(1),
      name: text,
      system_prompt: text,
      tools: z.array(z.union([z.string(), z.object({ name: z.string() })])).default([]),
    }),
  ),
  states: z.object({
    states: z
      .array(
        z.object({
          state_id: z.string().min(1),
          agent_id: z.string(),
          instruction: text,
          is_initial: z.boolean().default(false),
          is_final: z.boolean().default(false),
          listener: z.array(z.string()).default([]),
        }),
      )
      .min(1),
    transitions: z.array(z.object({ from_state: z.string(), to_state: z.string(), condition: text })).default([]),
  }),
});
export type MetaAgentFsm = z.infer<typeof metaAgentFsmSchema>;
type State = MetaAgentFsm["states"]["states"][number];
type Transition = MetaAgentFsm["states"]["transitions"][number];

const DEFAULT_MAX_ITERATIONS = 3;
const error = (code: string, message: string): ImportIssue => ({ code, severity: "error", message });

/** Transitions that go back (to a state on the DFS path from the initial state, or to itself). */
function backTransitions(initial: string, transitions: Transition[]): Set<Transition> {
  const back = new Set<Transition>();
  const state = new Map<string, "open" | "done">();
  const visit = (id: string): void => {
    state.set(id, "open");
    for (const t of transitions.filter((x) => x.from_state === id)) {
      if (state.get(t.to_state) === "open") back.add(t);
      else if (!state.has(t.to_state)) visit(t.to_state);
    }
    state.set(id, "done");
  };
  visit(initial);
  return back;
}

type Plan = { fsm: MetaAgentFsm; ids: Map<string, string>; agentKeys: Map<string, string>; issues: ImportIssue[] };

function stateNodes(plan: Plan, back: Set<Transition>, edges: Edge[]): NonNullable<WorkflowInput["nodes"]> {
  const { fsm, ids, agentKeys } = plan;
  return fsm.states.states.map((s) => {
    const id = ids.get(s.state_id) as string;
    const branchIds = new Set<string>();
    const outgoing = fsm.states.transitions.filter((t) => t.from_state === s.state_id && ids.has(t.to_state));
    const branches = outgoing.map((t) => ({
      t,
      branch: { id: uniqueId(`to_${t.to_state}`, branchIds, "to"), label: `To ${t.to_state}`, condition: t.condition },
    }));
    const forward = branches.filter(({ t }) => !back.has(t)).map(({ branch }) => branch.id);
    const exhausted = forward[0]
      ? { onExhausted: "continue" as const, continueWith: forward[0] }
      : { onExhausted: "abort" as const };
    for (const { t, branch } of branches) {
      const target = ids.get(t.to_state) as string;
      const base = { id: `${id}-${branch.id}-${target}`, source: id, sourceHandle: branch.id, target };
      edges.push(
        back.has(t)
          ? { ...base, kind: "loop", maxIterations: DEFAULT_MAX_ITERATIONS, ...exhausted }
          : { ...base, kind: "forward" },
      );
    }
    const extra = s.is_final
      ? [{ id: uniqueId("finish", branchIds), label: "Finish", condition: "The work of this final state is complete." }]
      : [
          {
            id: uniqueId("stay", branchIds),
            label: "Stay and refine",
            condition: "None of the other conditions is met yet; refine the current work.",
          },
        ];
    const last = extra[0] as { id: string };
    edges.push(
      s.is_final
        ? { id: `${id}-${last.id}-end`, source: id, sourceHandle: last.id, target: "end", kind: "forward" }
        : {
            id: `${id}-${last.id}-${id}`,
            source: id,
            sourceHandle: last.id,
            target: id,
            kind: "loop",
            maxIterations: DEFAULT_MAX_ITERATIONS,
            ...exhausted,
          },
    );
    return {
      id,
      type: "agent" as const,
      name: s.state_id,
      agent: agentKeys.get(s.agent_id) ?? s.agent_id,
      task: "",
      branches: [...branches.map((b) => b.branch), ...extra],
    };
  });
}

function taskOf(s: State, plan: Plan, upstream: Set<string>, reentered: boolean): string {
  const id = plan.ids.get(s.state_id) as string;
  const heard = plan.fsm.states.states.filter(
    (src) => src.state_id !== s.state_id && src.listener.includes(s.agent_id),
  );
  const lines = heard.flatMap((src) => {
    const srcId = plan.ids.get(src.state_id) as string;
    if (upstream.has(srcId)) return [`Output of ${src.state_id}: {{nodes.${srcId}.output}}`];
    if (!reentered) {
      plan.issues.push({
        code: "listener_not_upstream",
        severity: "warning",
        message: `State "${src.state_id}" lists "${s.agent_id}" as a listener, but state "${s.state_id}" (node "${id}") never runs after it.`,
      });
    }
    return [];
  });
  const feedback = reentered ? ["Feedback from the previous attempt (if any): {{feedback}}"] : [];
  return [s.instruction, "Overall task: {{inputs.task}}", lines.join("\n"), ...feedback]
    .filter((x) => x !== "")
    .join("\n\n");
}

function check(fsm: MetaAgentFsm, issues: ImportIssue[]): State | undefined {
  const states = fsm.states.states;
  const known = new Set(states.map((s) => s.state_id));
  const agents = new Set(fsm.agents.map((a) => a.agent_id));
  const initial = states.filter((s) => s.is_initial);
  if (initial.length !== 1)
    issues.push(error("initial_state", `The FSM needs exactly one initial state; it has ${initial.length}.`));
  if (!states.some((s) => s.is_final))
    issues.push(error("no_final_state", "The FSM has no final state, so no run can finish."));
  if (known.size !== states.length) issues.push(error("duplicate_state", "State ids must be unique."));
  for (const s of states) {
    if (!agents.has(s.agent_id))
      issues.push(error("unknown_agent", `State "${s.state_id}" uses unknown agent "${s.agent_id}".`));
    for (const l of s.listener)
      if (!agents.has(l))
        issues.push({
          code: "unknown_listener",
          severity: "warning",
          message: `State "${s.state_id}" lists unknown agent "${l}" as a listener.`,
        });
  }
  for (const t of fsm.states.transitions) {
    for (const end of [t.from_state, t.to_state])
      if (!known.has(end)) issues.push(error("unknown_state", `A transition refers to unknown state "${end}".`));
  }
  return initial[0];
}

/** Imports a MetaAgent FSM given as JSON text or an already parsed value. */
export function importMetaAgentFsm(input: string | unknown): ImportResult {
  let raw: unknown = input;
  if (typeof input === "string") {
    try {
      raw = JSON.parse(input);
    } catch (e) {
      return { ok: false, issues: [error("json_syntax", `Not valid JSON: ${(e as Error).message}`)] };
    }
  }
  const parsed = metaAgentFsmSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((i) => error("invalid_fsm", `${i.path.join(".") || "(root)"}: ${i.message}`)),
    };
  }
  const issues: ImportIssue[] = [];
  const initial = check(parsed.data, issues);
  if (!initial || issues.some((i) => i.severity === "error")) return { ok: false, issues };
  const doc = build(parsed.data, initial, issues);
  return result(layout(workflowSchema.parse(doc)), issues);
}

function build(fsm: MetaAgentFsm, initial: State, issues: ImportIssue[]): WorkflowInput {
  const taken = new Set(["start", "end"]);
  const ids = new Map(fsm.states.states.map((s) => [s.state_id, uniqueId(s.state_id, taken, "state")]));
  const agentKeys = new Map<string, string>();
  const keys = new Set<string>();
  const agents = fsm.agents.map((a) => {
    const key = uniqueId(a.agent_id, keys, "agent");
    agentKeys.set(a.agent_id, key);
    return {
      key,
      name: a.name || a.agent_id,
      instructions: a.system_prompt,
      tools: a.tools.map((t) => ({ name: typeof t === "string" ? t : t.name })),
    };
  });
  const plan: Plan = { fsm, ids, agentKeys, issues };
  const edges: Edge[] = [
    {
      id: `start-next-${ids.get(initial.state_id)}`,
      source: "start",
      sourceHandle: "next",
      target: ids.get(initial.state_id) as string,
      kind: "forward",
    },
  ];
  const nodes = stateNodes(plan, backTransitions(initial.state_id, fsm.states.transitions), edges);
  const finals = fsm.states.states.filter((s) => s.is_final).map((s) => `{{nodes.${ids.get(s.state_id)}.output}}`);
  const all: NonNullable<WorkflowInput["nodes"]> = [
    { id: "start", type: "start", name: "Start" },
    ...nodes,
    { id: "end", type: "end", name: "End", outputs: { result: finals.join("\n\n") } },
  ];
  const graph = buildGraph({ nodes: workflowSchema.shape.nodes.parse(all), edges });
  for (const node of all) {
    const s = fsm.states.states.find((x) => ids.get(x.state_id) === node.id);
    if (s && node.type === "agent")
      node.task = taskOf(s, plan, forwardAncestors(graph, node.id), (graph.loopIn.get(node.id) ?? []).length > 0);
  }
  return {
    name: "Imported MetaAgent FSM",
    description: "Imported from a MetaAgent finite state machine.",
    inputs: [{ key: "task", type: "text", description: "The task given to the system" }],
    outputs: [{ key: "result", type: "text", description: "The output of the final state" }],
    agents,
    nodes: all,
    edges,
  };
}
