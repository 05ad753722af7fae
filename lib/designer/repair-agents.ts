import type { AgentSpec, NodeOf, WorkflowNode } from "@/lib/workflow/schema";
import { fix } from "./fixes";
import type { Draft } from "./repair-graph";
import { resolveRef, slug, uniqueId, type Candidate } from "./resolve";

/**
 * Document-level reference repairs: agents named by nodes and map bodies (exact, normalised, closest; a saved agent
 * named by id or name is added as a reuse of it; otherwise a new agent is made from the node's task),
 * orchestrator workers (resolved, created, never the orchestrator's own agent; none left → the
 * design's unused agents, else one new worker), saved-agent references, and tool names that are a
 * registered tool written differently.
 */

/** What reference repairs resolve against besides the document. */
export interface RefContext {
  /** The user's saved agents (id, name) a design may name. */
  savedAgents: readonly { id: string; name: string }[];
  /** Ids a savedAgentId must be one of (default: the saved agents'). */
  savedAgentIds?: readonly string[];
  /** Registered tool names. */
  tools: readonly string[];
}

/** Tool names are only re-pointed when nearly identical: a different tool must not be swapped in. */
const TOOL_THRESHOLD = 0.85;

const agentCandidates = (agents: readonly AgentSpec[]): Candidate[] =>
  agents.map((a) => ({ id: a.key, aliases: [a.name, a.description].filter(Boolean) }));

const words = (s: string) => s.replace(/[_-]+/g, " ").trim();

function addAgent(d: Draft, spec: Omit<AgentSpec, "key">, base: string): string {
  const key = uniqueId(slug(base, "agent"), new Set(d.wf.agents.map((a) => a.key)));
  d.wf = { ...d.wf, agents: [...d.wf.agents, { ...spec, key }] };
  return key;
}

/** What naming an agent needs of the node that runs it (a map's body: the map's id and name, the body's task). */
type AgentUser = { id: string; name?: string; task: string };

/** The agent key a node should use for `ref`, creating an agent when nothing matches. */
function agentFor(d: Draft, node: AgentUser, ref: string, ctx: RefContext): string {
  const known = resolveRef(ref, agentCandidates(d.wf.agents));
  if (known) {
    d.fixes.push(
      fix(
        "reference_resolved",
        `Node "${node.id}" names agent "${ref}": read as "${known.id}" (${known.how} match).`,
        "unknown_agent",
      ),
    );
    return known.id;
  }
  const saved = ref
    ? resolveRef(
        ref,
        ctx.savedAgents.map((a) => ({ id: a.id, aliases: [a.name] })),
      )
    : undefined;
  const savedAgent = saved && ctx.savedAgents.find((a) => a.id === saved.id);
  if (savedAgent) {
    const key = addAgent(
      d,
      { name: savedAgent.name, description: "", instructions: "", tools: [], savedAgentId: savedAgent.id },
      savedAgent.name,
    );
    d.fixes.push(
      fix(
        "agent_created",
        `Node "${node.id}" names the saved agent "${savedAgent.name}": added it as agent "${key}".`,
        "unknown_agent",
      ),
    );
    return key;
  }
  const name = ref ? words(ref) : node.name || words(node.id);
  const task = node.task.trim();
  const key = addAgent(
    d,
    {
      name: name.slice(0, 60) || "Agent",
      description: name,
      instructions: task ? `You are the ${name}. ${task}` : `You are the ${name}. Do the task you are given carefully.`,
      tools: [],
    },
    ref || `${node.id}_agent`,
  );
  d.fixes.push(
    fix(
      "agent_created",
      `Agent "${ref || key}" used by node "${node.id}" was not declared: created "${key}" from the node's task.`,
      "unknown_agent",
    ),
  );
  return key;
}

function workersOf(d: Draft, node: NodeOf<"orchestrator">, ctx: RefContext): string[] {
  const out: string[] = [];
  for (const w of node.workers) {
    const key = d.wf.agents.some((a) => a.key === w) ? w : agentFor(d, { ...node, task: "" }, w, ctx);
    if (key === node.agent || out.includes(key)) {
      d.fixes.push(
        fix(
          "reference_dropped",
          `Orchestrator "${node.id}": worker "${w}" dropped (${key === node.agent ? "its own agent" : "listed twice"}).`,
          "orchestrator_self_worker",
        ),
      );
      continue;
    }
    out.push(key);
  }
  if (out.length > 0) return out;
  const used = new Set(
    d.wf.nodes.flatMap((n) =>
      n.type === "agent" || n.type === "orchestrator" ? [n.agent, ...(n.type === "orchestrator" ? n.workers : [])] : [],
    ),
  );
  const unused = d.wf.agents.map((a) => a.key).filter((k) => !used.has(k) && k !== node.agent);
  const workers = unused.length
    ? unused
    : [
        addAgent(
          d,
          {
            name: "Worker",
            description: `worker of ${node.id}`,
            instructions: `Do the sub-task ${node.id} hands you. ${node.task}`.trim(),
            tools: [],
          },
          `${node.id}_worker`,
        ),
      ];
  d.fixes.push(
    fix(
      "worker_assigned",
      `Orchestrator "${node.id}" had no workers: it hands work to ${workers.join(", ")}.`,
      "orchestrator_no_workers",
    ),
  );
  return workers;
}

/** Agents of agent and orchestrator nodes and of map bodies, and orchestrator workers. */
export function repairAgentRefs(d: Draft, ctx: RefContext): void {
  for (const id of d.wf.nodes.map((n) => n.id)) {
    const node = d.node(id);
    const body = node?.type === "map" ? node.body : undefined;
    if (node?.type === "map" && body?.type === "agent" && !d.wf.agents.some((a) => a.key === body.agent))
      d.replaceNode({ ...node, body: { ...body, agent: agentFor(d, { ...node, task: body.task }, body.agent, ctx) } });
    if (!node || (node.type !== "agent" && node.type !== "orchestrator")) continue;
    const known = d.wf.agents.some((a) => a.key === node.agent);
    let next: WorkflowNode = known ? node : { ...node, agent: agentFor(d, node, node.agent, ctx) };
    if (next.type === "orchestrator") next = { ...next, workers: workersOf(d, next, ctx) };
    if (next !== node) d.replaceNode(next);
  }
}

/** Saved-agent references that name no saved agent: resolved by id or name, else dropped. */
export function repairSavedAgents(d: Draft, ctx: RefContext): void {
  const ids = ctx.savedAgentIds ?? ctx.savedAgents.map((a) => a.id);
  const candidates = ctx.savedAgents.filter((a) => ids.includes(a.id)).map((a) => ({ id: a.id, aliases: [a.name] }));
  d.wf = {
    ...d.wf,
    agents: d.wf.agents.map((a) => {
      if (a.savedAgentId === undefined || ids.includes(a.savedAgentId)) return a;
      const hit = resolveRef(a.savedAgentId, candidates);
      const { savedAgentId, ...rest } = a;
      if (hit)
        d.fixes.push(
          fix(
            "reference_resolved",
            `Agent "${a.key}" reuses "${savedAgentId}": read as saved agent "${hit.id}".`,
            "unknown_saved_agent",
          ),
        );
      else
        d.fixes.push(
          fix(
            "reference_dropped",
            `Agent "${a.key}" named saved agent "${savedAgentId}", which does not exist: it is a new agent.`,
            "unknown_saved_agent",
          ),
        );
      return hit ? { ...rest, savedAgentId: hit.id } : rest;
    }),
  };
}

/** Tool names that are a registered tool written differently ("Web Search" → web_search). */
export function repairToolNames(d: Draft, ctx: RefContext): void {
  const candidates = ctx.tools.map((id) => ({ id }));
  const rename = (name: string, owner: string): string => {
    if (ctx.tools.includes(name)) return name;
    const hit = resolveRef(name, candidates, TOOL_THRESHOLD);
    if (!hit) return name;
    d.fixes.push(
      fix(
        "reference_resolved",
        `${owner} uses tool "${name}": read as the registered tool "${hit.id}".`,
        "unknown_tool",
      ),
    );
    return hit.id;
  };
  d.wf = {
    ...d.wf,
    agents: d.wf.agents.map((a) => ({
      ...a,
      tools: a.tools.map((t) => ({ ...t, name: rename(t.name, `Agent "${a.key}"`) })),
    })),
    nodes: d.wf.nodes.map((n) =>
      n.type === "tool" ? { ...n, tool: { ...n.tool, name: rename(n.tool.name, `Tool node "${n.id}"`) } } : n,
    ),
  };
}
