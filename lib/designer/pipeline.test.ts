import { describe, expect, it } from "vitest";
import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import { validate } from "@/lib/workflow/validate";
import { compileDesign } from "./compile";
import type { DesignerEvent } from "./events";
import { article, majority, mlFsm } from "./fixtures/bases";
import { CORPUS_CONTEXT, baseWorkflow } from "./fixtures/corpus";
import { badJson, json, mutate } from "./fixtures/helpers";
import { SAVED_WORKFLOWS, compareArticles } from "./fixtures/workflows";
import { KIND_NAMES } from "./kinds";
import { layeredLayout } from "./layout";
import type { DesignerModel, StructuredRequest } from "./model";
import { design, type DesignerOptions } from "./pipeline";
import { replayModel, type ScriptedReply } from "./replay";

/** A replay model that also records every request it was sent. */
function recording(replies: ScriptedReply[]) {
  const inner = replayModel(replies);
  const requests: StructuredRequest[] = [];
  const model: DesignerModel = {
    structured(request) {
      requests.push(request);
      return inner.structured(request);
    },
  };
  return { model, requests };
}

async function collect(
  message: string,
  opts: DesignerOptions,
  workflow?: Parameters<typeof design>[0]["workflow"],
): Promise<DesignerEvent[]> {
  const events: DesignerEvent[] = [];
  for await (const e of design({ message, ...(workflow ? { workflow } : {}) }, { context: CORPUS_CONTEXT, ...opts }))
    events.push(e);
  return events;
}

describe("designer pipeline", () => {
  it("streams stages in order and ends with one done carrying a laid-out workflow", async () => {
    const events = await collect("article", { model: replayModel([json(article)]) });
    expect(events.map((e) => (e.type === "stage_started" ? `${e.type}:${e.stage}` : e.type))).toEqual([
      "stage_started:design",
      "proposal",
      "stage_started:validate",
      "stage_started:optimise",
      "stage_started:layout",
      "done",
    ]);
    const done = events.at(-1)!;
    expect(done.type === "done" && done.result.workflow.nodes.every((n) => n.position)).toBe(true);
    expect(done.type === "done" && done.result.usage.calls).toBe(1);
  });

  it("feeds the validator's issues back verbatim and counts the repair call", async () => {
    const { model, requests } = recording([
      json(mutate.task(majority, "solve_a", "Solve {{nodes.vote.output}}.")),
      json(majority),
    ]);
    const events = await collect("vote", { model });
    const found = events.filter((e) => e.type === "issues_found");
    expect(found).toHaveLength(1);
    const issue = found[0]!.type === "issues_found" ? found[0]!.issues[0]! : undefined;
    expect(requests).toHaveLength(2);
    expect(requests[1]!.messages.at(-1)!.content).toContain(issue!.message);
    expect(requests[1]!.messages[0]!.content).toBe("vote");
    expect(issue!.code).toBe("node_ref_not_upstream");
    const last = events.at(-1)!;
    expect(last.type === "done" && last.result.usage.calls).toBe(2);
    expect(events.some((e) => e.type === "repaired" && e.by === "model")).toBe(true);
  });

  it("ends with the remaining issues, not a graph, when the model never answers JSON", async () => {
    const events = await collect("never", { model: replayModel([badJson(article)]) });
    const last = events.at(-1)!;
    expect(last.type).toBe("failed");
    if (last.type !== "failed") return;
    expect(last.reason).toBe("invalid");
    expect(last.issues[0]!.code).toBe("unparseable_answer");
    expect(last.usage.calls).toBe(4);
    expect(events.some((e) => e.type === "done")).toBe(false);
  });

  it("respects maxRepairs", async () => {
    const last = (await collect("never", { model: replayModel([badJson(article)]), maxRepairs: 1 })).at(-1)!;
    expect(last.type === "failed" && last.usage.calls).toBe(2);
  });

  it("is cancelled by an AbortSignal, before or during a model call", async () => {
    const before = new AbortController();
    before.abort();
    const early = (await collect("x", { model: replayModel([json(article)]), signal: before.signal })).at(-1)!;
    expect(early).toMatchObject({ type: "failed", reason: "cancelled", usage: { calls: 0 } });

    const during = new AbortController();
    const slow: DesignerModel = {
      structured: (req) =>
        new Promise((_, reject) =>
          req.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
        ),
    };
    const pending = collect("x", { model: slow, signal: during.signal });
    setTimeout(() => during.abort(), 10);
    expect((await pending).at(-1)).toMatchObject({ type: "failed", reason: "cancelled" });
  });

  it("reports a transport failure as model_error instead of throwing", async () => {
    const broken: DesignerModel = { structured: () => Promise.reject(new Error("connection refused")) };
    const last = (await collect("x", { model: broken })).at(-1)!;
    expect(last).toMatchObject({ type: "failed", reason: "model_error", message: "connection refused" });
  });

  it("sends a failing dry run's trace back to the model and keeps the passing run", async () => {
    const { model, requests } = recording([json(article), json(majority)]);
    let runs = 0;
    const dryRun: DesignerOptions["dryRun"] = async (wf, samples) => {
      runs += 1;
      const ok = wf.nodes.some((n) => n.id === "vote");
      return { ok, trace: ok ? `ran with ${JSON.stringify(samples)}` : "step outline failed: tool timed out" };
    };
    const events = await collect("x", { model, dryRun });
    expect(runs).toBe(2);
    expect(requests[1]!.messages.at(-1)!.content).toContain("step outline failed: tool timed out");
    const last = events.at(-1)!;
    expect(last.type === "done" && last.result.dryRun).toEqual({
      ok: true,
      trace: 'ran with {"problem":"sample problem"}',
    });
  });

  it("dry-runs by default (auto) only proposals whose tools have no side effects or are still to create", async () => {
    let runs = 0;
    const dryRun: DesignerOptions["dryRun"] = async () => ((runs += 1), { ok: true, trace: "run succeeded" });
    const context = {
      ...CORPUS_CONTEXT,
      tools: CORPUS_CONTEXT.tools.map((t) => ({ ...t, sideEffect: t.name === "run_python" })),
    };
    const safe = (
      await collect("x", { model: replayModel([json(article)]), context, dryRun, dryRunPolicy: "auto" })
    ).at(-1)!;
    expect(safe.type === "done" && safe.result.dryRun).toEqual({ ok: true, trace: "run succeeded" });
    const effects = (
      await collect("x", { model: replayModel([json(mlFsm)]), context, dryRun, dryRunPolicy: "auto" })
    ).at(-1)!;
    expect(runs).toBe(1);
    expect(effects.type === "done" && effects.result.dryRun).toMatchObject({
      ok: true,
      skipped: true,
      trace: expect.stringContaining("run_python"),
    });
    const always = (
      await collect("x", { model: replayModel([json(mlFsm)]), context, dryRun, dryRunPolicy: "always" })
    ).at(-1)!;
    expect(always.type === "done" && always.result.dryRun?.skipped).toBeUndefined();
    expect(runs).toBe(2);
  });

  it("keeps positions of the existing nodes and uses a pluggable layout for new ones", async () => {
    const base = baseWorkflow("article");
    const layout = (doc: { nodes: { id: string }[] }) =>
      new Map(doc.nodes.map((n, i) => [n.id, { x: 1000 + i, y: 0 }]));
    const events = await collect(
      "add a checker",
      {
        model: replayModel([
          json({
            summary: "add",
            operations: [
              {
                op: "insert_between",
                from: "write",
                to: "end",
                node: { id: "check", kind: "agent", agent: "writer", task: "Check {{nodes.write.output}}" },
              },
            ],
          }),
        ]),
        layout,
      },
      base,
    );
    const last = events.at(-1)!;
    if (last.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
    for (const n of base.nodes)
      expect(last.result.workflow.nodes.find((x) => x.id === n.id)!.position).toEqual(n.position);
    const added = last.result.workflow.nodes.find((n) => n.id === "check")!;
    expect(added.position).toBeDefined();
    expect(base.nodes.some((n) => n.position!.x === added.position!.x && n.position!.y === added.position!.y)).toBe(
      false,
    );
  });
});

describe("designer pipeline: subflows running the user's saved workflows", () => {
  const withWorkflows = { ...CORPUS_CONTEXT, workflows: SAVED_WORKFLOWS };
  const done = (events: DesignerEvent[]) => {
    const last = events.at(-1)!;
    if (last.type !== "done") throw new Error(`expected done, got ${JSON.stringify(last)}`);
    return last.result;
  };
  const subflowOf = (wf: Workflow, id: string) =>
    wf.nodes.find((n): n is NodeOf<"subflow"> => n.id === id && n.type === "subflow");
  const validation = { workflows: SAVED_WORKFLOWS.map(({ id, name, inputs }) => ({ id, name, inputs })) };

  it("offers the subflow kind and the saved workflows, and compiles the model's subflows into a valid workflow", async () => {
    const { model, requests } = recording([json(compareArticles())]);
    const result = done(
      await collect("Run my Article writer on two topics and compare", { model, context: withWorkflows, validation }),
    );
    expect(requests[0]!.system).toContain("- subflow: Runs another of your saved workflows");
    expect(requests[0]!.system).toContain("- wf_article: Article writer (");
    expect(subflowOf(result.workflow, "write_a")).toMatchObject({
      workflowId: "wf_article",
      inputs: { topic: "{{inputs.topic_a}}" },
    });
    expect(subflowOf(result.workflow, "write_b")).toMatchObject({
      workflowId: "wf_article",
      inputs: { topic: "{{inputs.topic_b}}" },
    });
    expect(subflowOf(result.workflow, "write_a")!.version).toBeUndefined();
    const errors = validate(result.workflow, { ...validation, tools: CORPUS_CONTEXT.tools.map((t) => t.name) }).filter(
      (i) => i.severity === "error",
    );
    expect(errors).toEqual([]);
    expect(result.usage.calls).toBe(1);
  });

  it("sends the same prompt as before subflows existed when the context lists no workflows", async () => {
    const without = recording([json(article)]);
    const empty = recording([json(article)]);
    await collect("article", { model: without.model });
    await collect("article", { model: empty.model, context: { ...CORPUS_CONTEXT, workflows: [] } });
    expect(empty.requests[0]!.system).toBe(without.requests[0]!.system);
    expect(without.requests[0]!.system).not.toContain("subflow");
  });

  it("sends an unknown workflow id back for repair with the ids a subflow may run (checked against the context's workflows by default)", async () => {
    const { model, requests } = recording([json(compareArticles("wf_missing")), json(compareArticles())]);
    const events = await collect("Run my Article writer on two topics and compare", { model, context: withWorkflows });
    const found = events.find((e) => e.type === "issues_found");
    const issue =
      found?.type === "issues_found" ? found.issues.find((i) => i.code === "subflow_unknown_workflow") : undefined;
    expect(issue).toMatchObject({ nodeId: "write_a" });
    const repair = requests[1]!.messages.at(-1)!.content;
    expect(repair).toContain(
      "A subflow's workflowId is one of: wf_article (Article writer), wf_triage (Support triage).",
    );
    expect(repair).toContain(`[subflow_unknown_workflow] at design.nodes[1].workflowId: ${issue!.message}`);
    expect(subflowOf(done(events).workflow, "write_a")!.workflowId).toBe("wf_article");
    expect(events.some((e) => e.type === "repaired" && e.by === "model")).toBe(true);
  });

  it("repairs undeclared and missing inputs locally: an unknown key set in place of the only required one left is that one", async () => {
    const wrong = compareArticles("wf_article", (topic) => ({ subject: `{{inputs.${topic}}}` }));
    const { model, requests } = recording([json(wrong), json(compareArticles())]);
    const result = done(await collect("compare two articles", { model, context: withWorkflows, validation }));
    expect(requests).toHaveLength(1);
    expect(subflowOf(result.workflow, "write_a")!.inputs).toEqual({ topic: "{{inputs.topic_a}}" });
    expect(subflowOf(result.workflow, "write_b")!.inputs).toEqual({ topic: "{{inputs.topic_b}}" });
    expect(result.fixes.filter((f) => f.code === "subflow_unknown_input").map((f) => f.repair)).toEqual([
      "reference_resolved",
      "reference_resolved",
    ]);
  });

  it("passes a required input nobody set on from the workflow's own input of that name, declaring it", async () => {
    const none = compareArticles("wf_article", () => ({}));
    const result = done(
      await collect("compare two articles", { model: replayModel([json(none)]), context: withWorkflows, validation }),
    );
    expect(subflowOf(result.workflow, "write_a")!.inputs).toEqual({ topic: "{{inputs.topic}}" });
    expect(result.workflow.inputs.map((f) => f.key)).toContain("topic");
    expect(result.usage.calls).toBe(1);
  });

  it("does not dry-run a proposal with subflows (a dry run starts no child runs)", async () => {
    let runs = 0;
    const dryRun: DesignerOptions["dryRun"] = async () => (
      (runs += 1),
      { ok: false, trace: "sub failed: no subflow port" }
    );
    const result = done(
      await collect("compare", { model: replayModel([json(compareArticles())]), context: withWorkflows, dryRun }),
    );
    expect(runs).toBe(0);
    expect(result.dryRun).toMatchObject({ ok: true, skipped: true, trace: expect.stringMatching(/subflows/) });
  });

  it("edits a subflow's args: inputs replaced, workflow and pinned version kept; another workflow drops the pin", async () => {
    const answer = compareArticles();
    const compiled = compileDesign(answer.design, answer.profile, { kinds: KIND_NAMES }).workflow!;
    const positions = layeredLayout(compiled) as Map<string, { x: number; y: number }>;
    const base: Workflow = {
      ...compiled,
      nodes: compiled.nodes.map((n) => ({
        ...n,
        position: positions.get(n.id),
        ...(n.type === "subflow" ? { version: 2 } : {}),
      })),
    };
    const ops = [
      { op: "update_node", id: "write_a", set: { args: { inputs: { topic: "{{inputs.topic_a}}", tone: "formal" } } } },
      {
        op: "update_node",
        id: "write_b",
        set: { args: { workflowId: "wf_triage", inputs: { message: "{{inputs.topic_b}}" } } },
      },
    ];
    const events = await collect(
      "make the first one formal and triage the second topic",
      { model: replayModel([json({ summary: "edit", operations: ops })]), context: withWorkflows, validation },
      base,
    );
    const result = done(events);
    expect(subflowOf(result.workflow, "write_a")).toMatchObject({
      workflowId: "wf_article",
      version: 2,
      inputs: { topic: "{{inputs.topic_a}}", tone: "formal" },
    });
    expect(subflowOf(result.workflow, "write_b")).toMatchObject({
      workflowId: "wf_triage",
      inputs: { message: "{{inputs.topic_b}}" },
    });
    expect(subflowOf(result.workflow, "write_b")!.version).toBeUndefined();
    expect(result.diff.changed.sort()).toEqual(["write_a", "write_b"]);
  });
});
