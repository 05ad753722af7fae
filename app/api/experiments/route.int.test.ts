import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createDataset } from "@/lib/evals/datasets";
import { handleMcpRequest } from "@/lib/mcp/server/server";
import { closeApiRedis, closeExperimentsQueue, experimentsQueue } from "@/lib/queue";
import { createTestUser, createTestWorkflow } from "@/test/fixtures";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { POST as IMPORT } from "../datasets/[id]/rows/route";
import { GET as EXPORT } from "../datasets/[id]/export/route";
import { POST as CANCEL } from "./[id]/cancel/route";
import { GET as DETAIL } from "./[id]/route";
import { POST as START } from "./route";

/**
 * The evaluations API with API tokens: import (all or nothing), export, start an experiment, read
 * and cancel it; the MCP tools. No worker here: the experiment stays queued, which is all a route
 * needs to show (the engine side is lib/evals/experiments.int.test.ts).
 */
useTestDatabase();
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;
let workflowId = "";
let datasetId = "";

const doc: WorkflowInput = {
  inputs: [{ key: "topic", type: "string", required: true }],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end" },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  [alice, bob] = [await createTestUser(), await createTestUser()];
  workflowId = (await createTestWorkflow(alice.id, doc)).workflowId;
  datasetId = (await createDataset(alice.id, { name: "Topics", workflowId })).id;
});
afterAll(async () => {
  await experimentsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeExperimentsQueue();
  await closeApiRedis();
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const csv = (auth: Record<string, string>, body: string, type = "text/csv") =>
  new Request(`http://x/api/datasets/${datasetId}/rows`, {
    method: "POST",
    headers: { ...auth, "content-type": type },
    body,
  });
const json = (auth: Record<string, string>, body: unknown) =>
  new Request("http://x/api/experiments", {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("datasets and experiments over the REST API", () => {
  it("import: 400 with every bad row and nothing stored, 415 for another type, 404 for another user; then 201", async () => {
    const bad = await IMPORT(csv(alice.auth, "topic,expected\nowls,a\n,b\ncats,c,extra\n"), ctx(datasetId));
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { details: { errors: { line: number }[]; errorCount: number } } };
    expect(body.error.details.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(await db().datasetRow.count({ where: { datasetId } })).toBe(0);
    expect((await IMPORT(csv(alice.auth, "{}", "application/json"), ctx(datasetId))).status).toBe(415);
    expect((await IMPORT(csv(bob.auth, "topic\nx\n"), ctx(datasetId))).status).toBe(404);
    expect((await IMPORT(csv({ authorization: "Bearer weft_not_a_token" }, "topic\nx\n"), ctx(datasetId))).status).toBe(
      401,
    );
    const ok = await IMPORT(csv(alice.auth, "topic,expected\nowls,hoot\ncats,meow\n"), ctx(datasetId));
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ version: 1, added: 2 });
    const exported = await EXPORT(
      new Request(`http://x/api/datasets/${datasetId}/export?format=jsonl`, { headers: alice.auth }),
      ctx(datasetId),
    );
    expect(await exported.text()).toBe(
      '{"inputs":{"topic":"owls"},"reference":"hoot","tags":[]}\n{"inputs":{"topic":"cats"},"reference":"meow","tags":[]}\n',
    );
  });

  it("start: 400 for bad evaluators, 404 for a version that is not the caller's; 201, read, cancel", async () => {
    const variants = [{ workflowId, version: 1 }];
    const badSpec = await START(
      json(alice.auth, { datasetId, variants, evaluators: [{ kind: "regex", name: "r", pattern: "(" }] }),
    );
    expect(badSpec.status).toBe(400);
    expect(
      (await START(json(bob.auth, { datasetId, variants, evaluators: [{ kind: "exact", name: "e" }] }))).status,
    ).toBe(404);
    expect(
      (
        await START(
          json(alice.auth, {
            datasetId,
            variants: [{ workflowId, version: 9 }],
            evaluators: [{ kind: "exact", name: "e" }],
          }),
        )
      ).status,
    ).toBe(404);
    const started = await START(
      json(alice.auth, { datasetId, variants, evaluators: [{ kind: "exact", name: "e" }], concurrency: 2 }),
    );
    expect(started.status).toBe(201);
    const { experiment } = (await started.json()) as { experiment: { id: string; cells: number } };
    expect(experiment.cells).toBe(2);
    expect(await experimentsQueue().getJob(`experiment-${experiment.id}`)).toBeTruthy();
    const read = await DETAIL(
      new Request(`http://x/api/experiments/${experiment.id}?rows=0`, { headers: alice.auth }),
      ctx(experiment.id),
    );
    expect(await read.json()).toMatchObject({
      experiment: {
        status: "queued",
        progress: { total: 2, pending: 2 },
        aggregates: [{ cells: 2, scored: 0, mean: null }],
      },
    });
    expect(
      (
        await DETAIL(
          new Request(`http://x/api/experiments/${experiment.id}`, { headers: bob.auth }),
          ctx(experiment.id),
        )
      ).status,
    ).toBe(404);
    const cancelled = await CANCEL(
      new Request(`http://x/api/experiments/${experiment.id}/cancel`, { method: "POST", headers: alice.auth }),
      ctx(experiment.id),
    );
    expect(await cancelled.json()).toMatchObject({
      experiment: { cancelRequested: true, progress: { cancelled: 2, pending: 0 } },
    });
  });
});

describe("the MCP tools", () => {
  let server: http.Server;
  let url = "";
  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const response = await handleMcpRequest(
        new Request(`http://localhost${req.url}`, {
          method: req.method,
          headers,
          body: req.method === "GET" ? undefined : Buffer.concat(chunks),
        }),
      );
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("list datasets, start an experiment and read its results; bad arguments are a tool error", async () => {
    const client = new Client({ name: "ci", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: alice.auth } }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(["weft_list_datasets", "weft_start_experiment", "weft_experiment_results"]),
    );
    const text = (r: Awaited<ReturnType<typeof client.callTool>>) =>
      JSON.parse((r.content as { text: string }[])[0]!.text) as unknown;
    const listed = text(await client.callTool({ name: "weft_list_datasets", arguments: {} })) as {
      datasets: { id: string; rowCount: number }[];
    };
    expect(listed.datasets).toMatchObject([{ id: datasetId, rowCount: 2 }]);
    const started = text(
      await client.callTool({
        name: "weft_start_experiment",
        arguments: {
          datasetId,
          variants: [{ workflowId, version: 1 }],
          evaluators: [{ kind: "contains", name: "c", value: "o" }],
        },
      }),
    ) as { experiment: { id: string } };
    const results = text(
      await client.callTool({ name: "weft_experiment_results", arguments: { experimentId: started.experiment.id } }),
    ) as { experiment: { status: string; rows?: unknown } };
    expect(results.experiment).toMatchObject({ status: "queued" });
    expect(results.experiment.rows).toBeUndefined();
    const bad = await client.callTool({ name: "weft_start_experiment", arguments: { datasetId } });
    expect(bad.isError).toBe(true);
    const foreign = await client.callTool({ name: "weft_experiment_results", arguments: { experimentId: "nope" } });
    expect(foreign.isError).toBe(true);
    await client.close();
  });
});
