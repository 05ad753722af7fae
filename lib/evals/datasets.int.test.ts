import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createTestRun, createTestUser, createTestWorkflow } from "@/test/fixtures";
import { useTestDatabase } from "@/test/db";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { addRunToDataset, createDataset, getDataset, importRows, removeRow } from "./datasets";
import { rowsToCsv } from "./export";

useTestDatabase();

const withInputs: WorkflowInput = {
  name: "Answer",
  inputs: [
    { key: "question", type: "text", required: true },
    { key: "level", type: "number", required: false },
  ],
  nodes: [
    { id: "start", type: "start" },
    { id: "end", type: "end", outputs: { answer: "{{inputs.question}}" } },
  ],
  edges: [{ id: "e1", source: "start", sourceHandle: "next", target: "end" }],
};

async function setup() {
  const user = await createTestUser();
  const { workflowId } = await createTestWorkflow(user.id, withInputs);
  const { id } = await createDataset(user.id, { name: "Questions", workflowId });
  return { workspaceId: user.id, workflowId, datasetId: id };
}

describe("datasets", () => {
  it("a CSV with 2 bad rows reports both and stores nothing", async () => {
    const { workspaceId, datasetId } = await setup();
    const csv =
      "question,level,expected\nWhat is 2+2?,1,4\nWhy?,high,because\nCapital of France?,2,Paris\n,3,nothing asked\nLast one,1,ok\n";
    const err = await importRows(workspaceId, datasetId, "csv", csv).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).details).toEqual({
      errorCount: 2,
      errors: [
        { row: 2, line: 3, message: 'level: must be a number (got "high")' },
        { row: 4, line: 5, message: "question: is required" },
      ],
    });
    expect(await db().datasetRow.count({ where: { datasetId } })).toBe(0);
    expect((await db().dataset.findUniqueOrThrow({ where: { id: datasetId } })).version).toBe(0);
  });

  it("a good file is one new version; removing a row makes another and the old version still reads it", async () => {
    const { workspaceId, datasetId } = await setup();
    const first = await importRows(
      workspaceId,
      datasetId,
      "csv",
      "question,level,expected,tags\nWhat is 2+2?,1,4,math\nCapital of France?,2,Paris,geo;easy\n",
    );
    expect(first).toEqual({ version: 1, added: 2 });
    const v1 = await getDataset(workspaceId, datasetId);
    expect(v1.rows.map((r) => [r.inputs, r.reference, r.tags])).toEqual([
      [{ question: "What is 2+2?", level: 1 }, "4", ["math"]],
      [{ question: "Capital of France?", level: 2 }, "Paris", ["geo", "easy"]],
    ]);
    const second = await importRows(
      workspaceId,
      datasetId,
      "jsonl",
      '{"inputs":{"question":"Third?"},"reference":"yes"}\n',
    );
    expect(second.version).toBe(2);
    const removed = await removeRow(workspaceId, datasetId, v1.rows[0]!.id);
    expect(removed.version).toBe(3);
    expect((await getDataset(workspaceId, datasetId)).rows.map((r) => r.inputs.question)).toEqual([
      "Capital of France?",
      "Third?",
    ]);
    expect((await getDataset(workspaceId, datasetId, 2)).rows.map((r) => r.inputs.question)).toEqual([
      "What is 2+2?",
      "Capital of France?",
      "Third?",
    ]);
    expect((await getDataset(workspaceId, datasetId, 1)).rowCount).toBe(2);
    // an export imports again as the same rows
    const again = await createDataset(workspaceId, {
      name: "Copy",
      workflowId: (await db().dataset.findUniqueOrThrow({ where: { id: datasetId } })).workflowId!,
    });
    await importRows(workspaceId, again.id, "csv", rowsToCsv((await getDataset(workspaceId, datasetId)).rows));
    expect((await getDataset(workspaceId, again.id)).rows.map((r) => [r.inputs, r.reference, r.tags])).toEqual(
      (await getDataset(workspaceId, datasetId)).rows.map((r) => [r.inputs, r.reference, r.tags]),
    );
  });

  it("adds a run as a row (its outputs as the reference); another user's dataset or run is a 404", async () => {
    const { workspaceId, datasetId } = await setup();
    const runId = await createTestRun(workspaceId, "succeeded");
    await db().run.update({
      where: { id: runId },
      data: { inputs: { question: "From a run" }, outputs: { answer: "42" } },
    });
    await addRunToDataset(workspaceId, datasetId, runId);
    expect((await getDataset(workspaceId, datasetId)).rows).toMatchObject([
      { inputs: { question: "From a run" }, reference: { answer: "42" }, sourceRunId: runId },
    ]);
    const other = await createTestUser();
    await expect(addRunToDataset(other.id, datasetId, runId)).rejects.toMatchObject({ code: "not_found" });
    await expect(getDataset(other.id, datasetId)).rejects.toMatchObject({ code: "not_found" });
    await expect(importRows(other.id, datasetId, "csv", "question\nx\n")).rejects.toMatchObject({ code: "not_found" });
    await db().run.update({ where: { id: runId }, data: { inputs: { nope: 1 } } });
    await expect(addRunToDataset(workspaceId, datasetId, runId)).rejects.toMatchObject({ code: "bad_request" });
    await expect(createDataset(workspaceId, { name: "Questions" })).rejects.toMatchObject({ code: "conflict" });
  });
});
