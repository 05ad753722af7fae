import { describe, expect, it } from "vitest";
import { answerError, buildAnswer, deadlineText } from "./review-answer";

const step = { nodeId: "review", iteration: 2 };
const field = (key: string, type: string, required = true) => ({ key, type, description: "", required });

describe("buildAnswer", () => {
  it("builds the route's body: typed values, the trimmed comment, the step's iteration", () => {
    const request = {
      fields: [
        field("note", "string"),
        field("body", "text"),
        field("score", "number"),
        field("ok", "boolean"),
        field("meta", "json"),
      ],
    };
    const built = buildAnswer(
      step,
      request,
      "approve",
      { note: "ship it", body: "line 1\nline 2", score: " 4.5 ", ok: true, meta: '{"tags":["a"]}' },
      "  looks good  ",
    );
    expect(built).toEqual({
      ok: true,
      body: {
        nodeId: "review",
        iteration: 2,
        choice: "approve",
        values: { note: "ship it", body: "line 1\nline 2", score: 4.5, ok: true, meta: { tags: ["a"] } },
        comment: "looks good",
      },
    });
  });

  it("leaves out empty optional fields and a blank comment; an unticked checkbox is false", () => {
    const request = {
      fields: [
        field("note", "string", false),
        field("score", "number", false),
        field("meta", "json", false),
        field("ok", "boolean"),
      ],
    };
    expect(buildAnswer(step, request, "reject", { note: "  ", score: "" }, " ")).toEqual({
      ok: true,
      body: { nodeId: "review", iteration: 2, choice: "reject", values: { ok: false } },
    });
  });

  it("reports required fields left empty, numbers and JSON that do not parse, and sends nothing", () => {
    const request = {
      fields: [field("note", "string"), field("score", "number"), field("meta", "json"), field("extra", "json", false)],
    };
    const built = buildAnswer(step, request, "approve", { note: "", score: "abc", extra: "{nope" });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors.note).toBe("is required");
    expect(built.errors.score).toBe("must be a number");
    expect(built.errors.meta).toBe("is required");
    expect(built.errors.extra).toMatch(/^is not valid JSON/);
  });

  it("accepts JSON scalars (a json field may hold any value)", () => {
    const built = buildAnswer(step, { fields: [field("meta", "json")] }, "approve", { meta: "false" });
    expect(built.ok && built.body.values).toEqual({ meta: false });
  });
});

describe("answerError", () => {
  it("takes the server's message and the first message per field (zod treeifyError details)", () => {
    const body = {
      error: {
        code: "bad_request",
        message: "The values do not match the review's fields.",
        details: { errors: [], properties: { note: { errors: ["is required", "x"] } } },
      },
    };
    expect(answerError(400, body)).toEqual({
      message: "The values do not match the review's fields.",
      fields: { note: "is required" },
    });
  });

  it("keeps a conflict's message; falls back to the status without a readable body", () => {
    expect(
      answerError(409, {
        error: { code: "conflict", message: 'Step "review" has already been answered.', details: null },
      }),
    ).toEqual({ message: 'Step "review" has already been answered.', fields: {} });
    expect(answerError(502, null)).toEqual({ message: "The answer was refused (502).", fields: {} });
    expect(
      answerError(400, { error: { message: "bad", details: { field: "choice", choices: ["a"] } } }).fields,
    ).toEqual({});
  });
});

describe("deadlineText", () => {
  const choices = [
    { id: "go", label: "Go" },
    { id: "stop", label: "" },
  ];
  const iso = (d: Date) => d.toISOString();
  it("says when the review stops waiting and what happens then", () => {
    expect(deadlineText("2026-01-01T00:00:00.000Z", { choices, timeoutMs: 3_600_000, timeoutChoice: "go" }, iso)).toBe(
      'If nobody answers by 2026-01-01T01:00:00.000Z, "Go" is taken.',
    );
    expect(deadlineText("2026-01-01T00:00:00.000Z", { choices, timeoutMs: 60_000, timeoutChoice: "stop" }, iso)).toBe(
      'If nobody answers by 2026-01-01T00:01:00.000Z, "stop" is taken.',
    );
    expect(deadlineText("2026-01-01T00:00:00.000Z", { choices, timeoutMs: 60_000 }, iso)).toBe(
      "If nobody answers by 2026-01-01T00:01:00.000Z, the step times out and the run fails.",
    );
    expect(deadlineText("2026-01-01T00:00:00.000Z", { choices }, iso)).toBeNull();
    expect(deadlineText(null, { choices, timeoutMs: 1 }, iso)).toBeNull();
  });
});
