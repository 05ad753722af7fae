import Ajv2020 from "ajv/dist/2020";
import { CORPUS_CONTEXT, baseWorkflow } from "@/lib/designer/fixtures/corpus";
import { SAVED_WORKFLOWS } from "@/lib/designer/fixtures/workflows";
import { REPAIR_KINDS, type RepairKind } from "@/lib/designer/fixes";
import { designSchemas, editSchemas, type WireSchemas } from "@/lib/designer/json-schema";
import { design } from "@/lib/designer/pipeline";
import type { DesignContext } from "@/lib/designer/prompts";
import { replayModel } from "@/lib/designer/replay";
import { SchemaSampler, prng } from "./schema-instances";

/**
 * B4a — any schema-valid answer: answers drawn at random (seeded) from the exact schema the designer
 * sends for each request — new designs and edits, loose and strict variants, in a context with and
 * without saved agents and saved workflows — each given to the designer as the model's only answer.
 * The generator knows the schema only (schema-instances.ts); ajv checks every answer is a valid
 * instance. An answer "ends valid with zero extra calls" when the designer is done after that one call.
 */

const RICH: DesignContext = {
  ...CORPUS_CONTEXT,
  savedAgents: [
    {
      id: "sa_fact",
      name: "Fact checker",
      description: "checks claims",
      instructions: "Check every claim against two sources.",
      tools: [{ name: "web_search" }],
    },
    { id: "sa_editor", name: "Copy editor", instructions: "Fix grammar and style." },
  ],
  workflows: SAVED_WORKFLOWS,
};
const BASES = ["article", "majority", "financial", "refund", "mlFsm"] as const;

type Case = { kind: "design" | "edit"; variant: "loose" | "strict"; context: "plain" | "rich"; base?: string };

export type B4aResult = {
  answers: number;
  seed: number;
  invalidInstances: number;
  validZeroExtraCalls: number;
  validZeroExtraShare: number;
  endedDoneOrFailed: number;
  crashes: number;
  byCase: Record<string, { answers: number; valid: number }>;
  failedIssues: Record<string, number>;
  /** Share of answers that needed each kind of local repair. */
  repairShare: Record<string, number>;
  fixesPerAnswer: number;
};

function schemasOf(c: Case, context: DesignContext): WireSchemas {
  const wire = {
    savedAgentIds: context.savedAgents.map((a) => a.id),
    workflowIds: (context.workflows ?? []).map((w) => w.id),
  };
  if (c.kind === "design") return designSchemas(wire);
  const base = baseWorkflow(c.base!);
  return editSchemas(wire, { nodeIds: base.nodes.map((n) => n.id), agentKeys: base.agents.map((a) => a.key) });
}

/** The cases in order: `n` answers, 60 % new designs and 40 % edits, alternating variant and context. */
function cases(n: number): Case[] {
  return Array.from({ length: n }, (_, i): Case => {
    const edit = i % 5 >= 3;
    return {
      kind: edit ? "edit" : "design",
      variant: i % 2 ? "strict" : "loose",
      context: Math.floor(i / 2) % 2 ? "rich" : "plain",
      ...(edit ? { base: BASES[i % BASES.length] } : {}),
    };
  });
}

/** Runs B4a on `n` answers drawn with `seed`. */
export async function runB4a(n: number, seed = 2024): Promise<B4aResult> {
  const ajv = new Ajv2020({ strict: false });
  const rand = prng(seed);
  const out: B4aResult = {
    answers: n,
    seed,
    invalidInstances: 0,
    validZeroExtraCalls: 0,
    validZeroExtraShare: 0,
    endedDoneOrFailed: 0,
    crashes: 0,
    byCase: {},
    failedIssues: {},
    repairShare: {},
    fixesPerAnswer: 0,
  };
  const needed = new Map<RepairKind, number>();
  let fixes = 0;
  for (const c of cases(n)) {
    const context = c.context === "rich" ? RICH : CORPUS_CONTEXT;
    const schemas = schemasOf(c, context);
    const schema = c.variant === "strict" ? schemas.strict : schemas.loose;
    const answer = new SchemaSampler(rand).sample(schema);
    if (!ajv.validate(schema, answer)) out.invalidInstances++;
    const key = `${c.kind}/${c.variant}/${c.context}`;
    const row = (out.byCase[key] ??= { answers: 0, valid: 0 });
    row.answers++;
    try {
      let last;
      const request = { message: "a request", ...(c.base ? { workflow: baseWorkflow(c.base) } : {}) };
      for await (const e of design(request, { model: replayModel([{ json: answer }]), context })) last = e;
      if (last?.type === "done" || last?.type === "failed") out.endedDoneOrFailed++;
      if (last?.type === "done" && last.result.usage.calls === 1) {
        out.validZeroExtraCalls++;
        row.valid++;
        fixes += last.result.fixes.length;
        for (const kind of new Set(last.result.fixes.map((f) => f.repair)))
          needed.set(kind, (needed.get(kind) ?? 0) + 1);
      } else if (last?.type === "failed") {
        for (const code of new Set(last.issues.map((i) => i.code)))
          out.failedIssues[code] = (out.failedIssues[code] ?? 0) + 1;
      }
    } catch {
      out.crashes++;
    }
  }
  out.validZeroExtraShare = out.validZeroExtraCalls / n;
  out.fixesPerAnswer = out.validZeroExtraCalls ? fixes / out.validZeroExtraCalls : 0;
  for (const kind of Object.keys(REPAIR_KINDS) as RepairKind[]) out.repairShare[kind] = (needed.get(kind) ?? 0) / n;
  return out;
}
