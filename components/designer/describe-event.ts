import type { DesignerEvent, Stage } from "@/lib/designer/events";

/** How a designer event reads in the chat: a line, its tone, and optional detail lines. */
export type EventLine = {
  type: DesignerEvent["type"] | "notice";
  text: string;
  tone: "info" | "ok" | "warn" | "error";
  details: string[];
};

/** The chat's notice when the offline demo's scripted model designs (no provider connected). */
export const OFFLINE_DESIGNER_NOTICE: EventLine = {
  type: "notice",
  tone: "warn",
  text: "Offline demo model: no model provider is connected, so the designer answers from its scripted examples — the New workflow page's examples exactly, any other request with the closest example.",
  details: ["Add a provider (OpenAI, Ollama, vLLM, LM Studio, OpenRouter…) in Settings to design from your own words."],
};

const STAGE: Record<Stage, string> = {
  design: "Profiling the request and drafting the workflow",
  edit: "Planning the edit",
  validate: "Validating",
  repair: "Asking the model to repair the issues",
  optimise: "Merging agents whose roles overlap",
  layout: "Laying out the graph",
  dry_run: "Dry run: running the proposal once on sample inputs",
};

const OP_TEXT: Record<string, string> = {
  add_node: "add node",
  add_agent: "add agent",
  insert_between: "insert",
  remove_node: "remove node",
  add_edge: "connect",
  remove_edge: "disconnect",
  update_node: "change node",
  update_agent: "change agent",
  remove_agent: "remove agent",
  set_loop_cap: "cap loop",
  add_input: "add input",
  set_variable: "set variable",
};

function describeOperation(op: Record<string, unknown>): string {
  const name = OP_TEXT[String(op.op)] ?? String(op.op).replace(/_/g, " ");
  const node = op.node as { id?: string } | undefined;
  const agent = op.agent as { key?: string; role?: string } | undefined;
  const target =
    node?.id ??
    agent?.role ??
    agent?.key ??
    (typeof op.id === "string" ? op.id : typeof op.key === "string" ? op.key : undefined);
  const where = typeof op.from === "string" && typeof op.to === "string" ? ` between ${op.from} and ${op.to}` : "";
  return `${name}${target ? ` ${target}` : ""}${where}`;
}

/** The hint under a design that failed because the model never answered with the JSON asked for. */
export const NO_JSON_HINT =
  "The model did not answer with the JSON the designer asks for. A model with tool calling or JSON output works best (Settings → Designer model); small local models often need a larger size.";

/** One chat line per event (what the panel streams). */
export function describeEvent(e: DesignerEvent): EventLine {
  switch (e.type) {
    case "stage_started":
      return {
        type: e.type,
        tone: "info",
        text: `${STAGE[e.stage]}${e.attempt > 0 && e.stage !== "repair" ? ` (attempt ${e.attempt + 1})` : e.stage === "repair" ? ` (round ${e.attempt})` : ""}…`,
        details: [],
      };
    case "drafting":
      return { type: e.type, tone: "info", text: `Drafting: ${e.summary}`, details: [] };
    case "proposal": {
      const details = e.operations
        ? e.operations.map((op) => describeOperation(op as unknown as Record<string, unknown>))
        : (e.profile?.agents ?? []).map((a) => `agent ${a.key}: ${a.role}`);
      const size = e.nodes !== undefined ? ` (${e.nodes} nodes, ${e.edges ?? 0} edges)` : "";
      return { type: e.type, tone: "info", text: `Proposed: ${e.summary}${size}`, details };
    }
    case "issues_found":
      return {
        type: e.type,
        tone: "warn",
        text: `Found ${e.issues.length} issue${e.issues.length === 1 ? "" : "s"}`,
        details: e.issues.map((i) => `${i.code}: ${i.message}`),
      };
    case "repaired":
      // local repairs are counted by kind ("repaired: 3 ids renamed, 1 agent created"), each listed below
      return {
        type: e.type,
        tone: "ok",
        text:
          e.by === "local"
            ? `Repaired without asking the model: ${e.summary}`
            : `The model repaired ${e.fixes.length} issue${e.fixes.length === 1 ? "" : "s"}`,
        details: e.fixes.map((f) => (e.by === "local" ? f.message : `${f.code}: ${f.message}`)),
      };
    case "done": {
      const { added, changed, removed } = e.result.diff;
      const details = [
        ...(e.result.merged.length ? e.result.merged.map((m) => `merged agent ${m.removed} into ${m.kept}`) : []),
        ...e.result.toCreate.map((t) => `tool to create: ${t.name}${t.purpose ? ` (${t.purpose})` : ""}`),
        ...(e.result.dryRun
          ? [
              `dry run ${e.result.dryRun.skipped ? "skipped" : e.result.dryRun.ok ? "passed" : "failed"}:`,
              ...e.result.dryRun.trace.split("\n").slice(0, 8),
            ]
          : []),
      ];
      return {
        type: e.type,
        tone: "ok",
        text: `Ready: ${e.result.summary}. ${added.length} added, ${changed.length} changed, ${removed.length} removed — review it on the canvas.`,
        details,
      };
    }
    case "failed": {
      // a model that never answered with JSON at all: say what to change, not only what went wrong
      const noJson =
        e.reason === "invalid" && e.issues.length > 0 && e.issues.every((i) => i.code === "unparseable_answer");
      return {
        type: e.type,
        tone: e.reason === "cancelled" ? "warn" : "error",
        text:
          e.reason === "cancelled"
            ? "Cancelled."
            : e.reason === "invalid"
              ? `No valid workflow: ${e.message} Remaining issues:`
              : `The model failed: ${e.message}`,
        details: [
          ...e.issues.map((i) => `${i.code}${i.path ? ` (at ${i.path})` : ""}: ${i.message}`),
          ...(noJson ? [NO_JSON_HINT] : []),
        ],
      };
    }
  }
}
