import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModelConfig } from "@/lib/llm/models";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { evaluatorSpecSchema, type EvaluatorSpec } from "./evaluator-spec";
import type { CellFacts } from "./evaluators";
import { JUDGE_SCHEMA_NAME, judgeCell } from "./judge";

/** The judge over real HTTP to the scripted model server: it answers by what the answer judged says. */
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({
    fixtures: [
      {
        rules: [
          {
            id: "good",
            match: { schema: JUDGE_SCHEMA_NAME, lastUser: "Answer to grade:\nParis" },
            reply: { json: { reasoning: "Names the capital.", score: 5 } },
          },
          {
            id: "off-scale",
            match: { schema: JUDGE_SCHEMA_NAME, lastUser: "Answer to grade:\nLyon" },
            reply: { json: { reasoning: "Wrong city.", score: 9 } },
          },
          {
            id: "prose",
            match: { schema: JUDGE_SCHEMA_NAME, lastUser: "Answer to grade:\nMarseille" },
            reply: { text: "I would rather not say." },
          },
          {
            id: "bad",
            match: { schema: JUDGE_SCHEMA_NAME },
            reply: { json: { reasoning: "Not the capital.", score: 2 } },
          },
        ],
      },
    ],
  });
});
afterAll(() => server.close());

const judge = evaluatorSpecSchema.parse({
  kind: "judge",
  name: "judge",
  rubric: "Is it the capital of France?",
  threshold: 0.6,
}) as Extract<EvaluatorSpec, { kind: "judge" }>;
const facts = (answer: string, over: Partial<CellFacts> = {}): CellFacts => ({
  inputs: { question: "Capital of France?" },
  outputs: { answer },
  reference: "Paris",
  runStatus: "succeeded",
  latencyMs: 1,
  tokens: 0,
  costUsd: null,
  ...over,
});
const resolve = async () => scriptedModelConfig(server.port);

describe("the LLM judge", () => {
  it("maps the score onto 0–1 along the scale and keeps the reasoning; the prompt carries rubric, inputs, reference and answer", async () => {
    const r = await judgeCell(judge, facts("Paris"), resolve);
    expect(r).toMatchObject({ score: 1, passed: true, detail: "5 of 1–5", reasoning: "Names the capital." });
    expect(r.tokens).toBeGreaterThan(0);
    const sent = JSON.stringify(server.requests().at(-1)!.body);
    for (const part of [
      "Is it the capital of France?",
      "Capital of France?",
      "Reference answer:\\nParis",
      "Answer to grade:\\nParis",
    ])
      expect(sent).toContain(part);
    expect(await judgeCell(judge, facts("Nice"), resolve)).toMatchObject({
      score: 0.25,
      passed: false,
      reasoning: "Not the capital.",
    });
  });

  it("a score off the scale or an answer without one scores nothing and fails; a failed run is not sent", async () => {
    expect(await judgeCell(judge, facts("Lyon"), resolve)).toMatchObject({
      score: null,
      passed: false,
      detail: expect.stringContaining("outside the scale"),
    });
    expect(await judgeCell(judge, facts("Marseille"), resolve)).toMatchObject({
      score: null,
      passed: false,
      detail: "the judge's answer held no score",
    });
    const before = server.requests().length;
    expect(await judgeCell(judge, facts("", { runStatus: "failed" }), resolve)).toMatchObject({
      score: 0,
      passed: false,
    });
    expect(server.requests().length).toBe(before);
  });

  it("an unreachable model is reported, not thrown", async () => {
    const r = await judgeCell(judge, facts("Paris"), async () => ({ ...scriptedModelConfig(1), timeoutMs: 2000 }));
    expect(r).toMatchObject({ score: null, passed: false, detail: expect.stringContaining("could not be asked") });
  });
});
