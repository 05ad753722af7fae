import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { startRun } from "@/lib/runs/service";
import { flushTracing, startTracing, stopTracing } from "@/lib/telemetry/tracing";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { createTestWorkflow } from "@/test/fixtures";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { spawnWorker, stopWorker, waitFor, waitTerminal } from "@/test/helpers/worker";

/**
 * OpenTelemetry traces end to end: a local OTLP/HTTP receiver (this file's HTTP server, decoding the
 * JSON export), the run started in this process (the web side: its start span) and executed by a real
 * worker process exporting to the same receiver. One run is one trace: start → job → steps → model
 * call, with GenAI attributes. A worker without an endpoint sends nothing.
 */
type OtlpValue = { stringValue?: string; intValue?: string | number; arrayValue?: { values: OtlpValue[] } };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: OtlpValue }[];
};

const exports: { service: string; spans: OtlpSpan[] }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    if (req.url === "/v1/traces") {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: OtlpValue }[] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
        exports.push({ service, spans: rs.scopeSpans.flatMap((s) => s.spans) });
      }
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const rt = useWorkerRuntime({
  workerEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "100" },
  fixtures: [{ rules: [{ id: "writer", match: { system: "[[traced]]" }, reply: { text: "traced answer" } }] }],
});
afterAll(async () => {
  await stopTracing();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const workflow: WorkflowInput = {
  name: "Traced",
  agents: [{ key: "w", name: "Writer", instructions: "[[traced]] Write." }],
  nodes: [
    { id: "start", type: "start" },
    { id: "write", type: "agent", agent: "w", task: "Write one line." },
    { id: "end", type: "end", outputs: { answer: "{{nodes.write.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "end" },
  ],
};

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return (
    v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : v?.arrayValue?.values.map((x) => x.stringValue))
  );
};
const all = () => exports.flatMap((e) => e.spans.map((s) => ({ ...s, service: e.service })));

describe("OpenTelemetry traces", () => {
  it("one run is one trace: the start span, the worker's job, a span per step and the model call with GenAI attributes", async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    expect(await startTracing("weft-web")).toBe(true);
    const { workflowId } = await createTestWorkflow(rt.workspaceId, workflow);
    const runId = (await startRun(rt.workspaceId, workflowId, {})).run.id;
    expect((await waitTerminal(runId, 60_000)).run.status).toBe("succeeded");
    await flushTracing();
    const ofRun = () => all().filter((s) => attr(s, "weft.run.id") === runId || s.name.startsWith("chat "));
    await waitFor(
      async () =>
        ofRun().filter((s) => s.name.startsWith("weft.step")).length === 3 &&
        ofRun().some((s) => s.name === "weft.run"),
      30_000,
      "the worker's spans arrived",
    );

    const start = all().find((s) => s.name === "weft.run.start" && attr(s, "weft.run.id") === runId)!;
    expect(start).toMatchObject({ service: "weft-web" });
    const job = all().find((s) => s.name === "weft.run" && attr(s, "weft.run.id") === runId)!;
    expect(job).toMatchObject({ service: "weft-worker", traceId: start.traceId, parentSpanId: start.spanId });
    expect(attr(job, "weft.run.outcome")).toBe("succeeded");
    const steps = all().filter((s) => s.name.startsWith("weft.step") && attr(s, "weft.run.id") === runId);
    expect(steps.map((s) => s.name).sort()).toEqual(["weft.step end", "weft.step start", "weft.step write"]);
    for (const s of steps) expect(s).toMatchObject({ traceId: start.traceId, parentSpanId: job.spanId });
    const write = steps.find((s) => s.name === "weft.step write")!;
    expect(attr(write, "weft.node.kind")).toBe("agent");
    expect(attr(write, "weft.step.status")).toBe("succeeded");
    const chat = all().filter((s) => s.name.startsWith("chat ") && s.parentSpanId === write.spanId);
    expect(chat).toHaveLength(1);
    expect(chat[0]).toMatchObject({ traceId: start.traceId });
    expect(attr(chat[0]!, "gen_ai.operation.name")).toBe("chat");
    expect(attr(chat[0]!, "gen_ai.response.model")).toBe("scripted-demo");
    expect(attr(chat[0]!, "gen_ai.usage.input_tokens")).toBeGreaterThan(0);
    expect(attr(chat[0]!, "gen_ai.usage.output_tokens")).toBeGreaterThan(0);
    expect(attr(chat[0]!, "gen_ai.response.finish_reasons")).toEqual(["stop"]);
    // prompts and answers only when the operator turns content capture on
    expect(
      chat[0]!.attributes?.some((a) => a.key.startsWith("gen_ai.input") || a.key.startsWith("gen_ai.output")),
    ).toBe(false);
  }, 120_000);

  it("with no endpoint configured, nothing is sent", async () => {
    await stopTracing();
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    expect(await startTracing("weft-web")).toBe(false);
    // the traced worker stops; a worker without the variable takes the next run
    await stopWorker(rt.worker);
    const plain = spawnWorker({
      databaseUrl: rt.database.current.url,
      prefix: rt.prefix,
      modelPort: rt.model.port,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "" },
    });
    try {
      await plain.ready;
      const before = exports.length;
      const { workflowId } = await createTestWorkflow(rt.workspaceId, workflow);
      const runId = (await startRun(rt.workspaceId, workflowId, {})).run.id;
      expect((await waitTerminal(runId, 60_000)).run.status).toBe("succeeded");
      await new Promise((r) => setTimeout(r, 1000)); // longer than the traced worker's export delay
      expect(exports.length).toBe(before);
    } finally {
      await stopWorker(plain);
    }
  }, 120_000);
});
