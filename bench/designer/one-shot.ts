import * as z from "zod";
import { nodeKindRegistry } from "@/lib/workflow/registry";
import { nodeKinds, type Workflow } from "@/lib/workflow/schema";
import { validate } from "@/lib/workflow/validate";
import { markPlaceholders } from "@/lib/designer/build";
import { compileDesign } from "@/lib/designer/compile";
import { applyEdits } from "@/lib/designer/edit";
import { countingModel, type DesignerModel, type Usage } from "@/lib/designer/model";
import type { DesignContext } from "@/lib/designer/prompts";
import { designSchemas, editSchemas } from "@/lib/designer/json-schema";
import { readDesignAnswer, readEditAnswer } from "@/lib/designer/read";
import type { DesignAnswer, DesignNode, EditOperation } from "@/lib/designer/schemas";

/**
 * The B4 peer: a one-shot generator the way most products ship one — the whole catalogue (every
 * kind's full config JSON schema, the whole current document for edits) in one prompt, ONE call,
 * and whatever is invalid is dropped (unknown kinds, dangling edges, uncapped loops, duplicate
 * branches, operations that do not apply). No local repair, no feedback loop. Same answer schemas
 * as the designer, so the same recorded model answers both.
 */

/** Marker in the peer's system prompt (its scripted rules match on it). */
export const ONE_SHOT_MARKER = "WEFT-ONE-SHOT";

/**
 * The kinds the peer offers: every kind but `subflow`, which runs one of the user's saved workflows
 * by id — B4's requests come with no saved workflows, so the designer does not offer it either
 * (lib/designer/kinds.ts), and offering it here would only lengthen the peer's prompt.
 */
const KINDS: readonly string[] = nodeKinds.filter((k) => k !== "subflow");

function catalogue(): string {
  return (KINDS as readonly (typeof nodeKinds)[number][])
    .map((k) => {
      const spec = nodeKindRegistry[k];
      return `## ${k}: ${spec.description}\nConfig schema: ${JSON.stringify(z.toJSONSchema(spec.configSchema as z.ZodType, { unrepresentable: "any", io: "input" }))}`;
    })
    .join("\n");
}

function systemPrompt(ctx: DesignContext, edit: boolean): string {
  return [
    `${ONE_SHOT_MARKER} You generate multi-agent workflows. ${edit ? "Return operations that edit the current workflow." : "Return the profile and the complete design."}`,
    "Node catalogue:",
    catalogue(),
    "Patterns: routing (router with branches), parallel (fan-out then an aggregator), evaluator-optimizer (evaluator with a loop edge back), fsm-traceback (loop edges to earlier states), orchestrator-workers (orchestrator node with workers).",
    "Rules: one start, reachable nodes, every path ends in end/abort, only loop edges go back with maxIterations and onExhausted, unique branch ids, routers have >= 2 branches.",
    `Registered tools: ${ctx.tools.map((t) => t.name).join(", ") || "none"}`,
  ].join("\n");
}

const dedupeBranches = (n: DesignNode): DesignNode =>
  n.branches ? { ...n, branches: n.branches.filter((b, i, all) => all.findIndex((x) => x.id === b.id) === i) } : n;

/** Drops the invalid parts of a design answer. */
function dropInvalidDesign(a: DesignAnswer): DesignAnswer {
  const nodes = a.design.nodes.filter((n) => KINDS.includes(n.kind)).map(dedupeBranches);
  const ids = new Set(nodes.map((n) => n.id));
  const edges = a.design.edges.filter(
    (e) => ids.has(e.from) && ids.has(e.to) && (!e.loop || (e.maxIterations ?? 0) >= 1),
  );
  return { ...a, design: { ...a.design, nodes, edges } };
}

/** Drops the operations that are invalid on their face; applyEdits drops the ones that do not apply. */
function dropInvalidOps(ops: EditOperation[], base: Workflow): EditOperation[] {
  const ids = new Set(base.nodes.map((n) => n.id));
  const kept: EditOperation[] = [];
  for (const op of ops) {
    if ((op.op === "add_node" || op.op === "insert_between") && !KINDS.includes(op.node.kind)) continue;
    if (
      op.op === "add_edge" &&
      (!ids.has(op.edge.from) || !ids.has(op.edge.to) || (op.edge.loop && !(op.edge.maxIterations! >= 1)))
    )
      continue;
    if (op.op === "add_node" || op.op === "insert_between") ids.add(op.node.id);
    if (op.op === "update_node" && op.set.branches)
      kept.push({
        ...op,
        set: { ...op.set, branches: dedupeBranches({ id: op.id, kind: "agent", branches: op.set.branches }).branches },
      });
    else kept.push(op);
  }
  return kept;
}

export type OneShotResult = { workflow?: Workflow; valid: boolean; usage: Usage };

/** One call, invalid parts dropped, then lib/workflow validation (placeholder tools count as pending, as for the designer). */
export async function oneShot(
  request: { message: string; workflow?: Workflow },
  model: DesignerModel,
  ctx: DesignContext,
): Promise<OneShotResult> {
  const usage: Usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  const counted = countingModel(model, usage);
  const registered = ctx.tools.map((t) => t.name);
  const edit = request.workflow !== undefined;
  const system = systemPrompt(ctx, edit);
  let doc: Workflow | undefined;
  let needed: { name: string; purpose?: string }[] | undefined;
  if (request.workflow) {
    const messages = [
      {
        role: "user" as const,
        content: `${request.message}\n\nCurrent workflow document:\n${JSON.stringify(request.workflow)}`,
      },
    ];
    const base = {
      nodeIds: request.workflow.nodes.map((n) => n.id),
      agentKeys: request.workflow.agents.map((a) => a.key),
    };
    const res = await counted.structured({ schema: editSchemas({}, base), system, messages });
    const read = res.ok ? readEditAnswer(res.data) : undefined;
    if (read?.ok) {
      doc = applyEdits(request.workflow, dropInvalidOps(read.answer.operations, request.workflow), {
        kinds: KINDS,
      }).workflow;
      needed = read.answer.toolsNeeded;
    }
  } else {
    const res = await counted.structured({
      schema: designSchemas({}),
      system,
      messages: [{ role: "user", content: request.message }],
    });
    const read = res.ok ? readDesignAnswer(res.data) : undefined;
    if (read?.ok) {
      const kept = dropInvalidDesign(read.answer);
      doc = compileDesign(kept.design, kept.profile, { kinds: KINDS }).workflow;
      needed = kept.profile.toolsNeeded;
    }
  }
  if (!doc) return { valid: false, usage };
  const { workflow } = markPlaceholders(doc, registered, needed);
  const errors = validate(workflow, { tools: registered }).filter(
    (i) => i.severity === "error" && i.code !== "tool_placeholder",
  );
  return { workflow, valid: errors.length === 0, usage };
}
