import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReviewCard } from "./review-card";
import type { RunInfoView, StepView } from "@/lib/run-views/dto";
import { initialRunState, waitingReviews } from "./run-fold";

const request = {
  prompt: "Publish this?\nSecond line",
  choices: [
    { id: "approve", label: "Approve" },
    { id: "reject", label: "Reject" },
  ],
  fields: [
    { key: "note", type: "string", description: "Why", required: true },
    { key: "body", type: "text", description: "", required: false },
    { key: "score", type: "number", description: "", required: false },
    { key: "ok", type: "boolean", description: "", required: false },
    { key: "meta", type: "json", description: "", required: false },
  ],
};
const run: RunInfoView = {
  id: "run1",
  status: "waiting",
  reason: null,
  workflowName: "Publish",
  version: 1,
  promptTokens: 0,
  completionTokens: 0,
  createdAt: "2026-01-01T00:00:00.000Z",
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  trigger: "manual",
};
const step: StepView = {
  nodeId: "review",
  iteration: 1,
  attempt: 1,
  status: "waiting",
  branch: null,
  promptTokens: 0,
  completionTokens: 0,
  latencyMs: null,
  error: null,
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: null,
  input: undefined,
  output: { request },
};
const reviews = waitingReviews(initialRunState(run, [step]));

const render = (canAnswer: boolean) =>
  renderToStaticMarkup(<ReviewCard runId="run1" reviews={reviews} nodeName={() => "Editor"} canAnswer={canAnswer} />);

describe("ReviewCard", () => {
  it("owner: the question, one control per field, a comment and one button per choice (the first primary)", () => {
    const html = render(true);
    expect(html).toContain('data-testid="review-review"');
    expect(html).toContain("Editor");
    expect(html).toContain("Publish this?\nSecond line");
    expect(html).toMatch(/<input[^>]*type="text"[^>]*data-testid="review-field-note"/);
    expect(html).toMatch(/<textarea[^>]*data-testid="review-field-body"/);
    expect(html).toMatch(/<input[^>]*type="number"[^>]*data-testid="review-field-score"/);
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*data-testid="review-field-ok"/);
    expect(html).toMatch(/<textarea[^>]*data-testid="review-field-meta"/);
    expect(html).toContain('data-testid="review-comment"');
    expect(html).toMatch(/class="[^"]*bg-primary[^"]*"[^>]*data-testid="review-choice-approve"/);
    expect(html).toMatch(/class="[^"]*border-border[^"]*"[^>]*data-testid="review-choice-reject"/);
  });

  it("share viewer: the question and its state, no form and no buttons", () => {
    const html = render(false);
    expect(html).toContain("Publish this?");
    expect(html).toContain("Waiting for an answer");
    expect(html).not.toContain("review-choice-");
    expect(html).not.toContain("review-field-");
    expect(html).not.toContain("<button");
  });

  it("a tool an agent wrote: its code, hash, reach and tests from the waiting step, with approve and reject", () => {
    const tool = {
      name: "count_vowels",
      description: "Counts the vowels",
      versionId: "v1",
      version: 2,
      codeHash: "ab".repeat(32),
      code: "function run(i) { return { vowels: 3 } }",
      tests: [
        { input: { text: "banana" }, expected: { vowels: 3 }, passed: true, actual: { vowels: 3 } },
        { input: { text: "sky" }, expected: { vowels: 0 }, passed: false, actual: { vowels: 3 } },
      ],
      allowedDomains: [],
      rounds: 3,
    };
    const waiting = { ...step, nodeId: "solve", output: { request: { ...request, fields: [], tool } } };
    const [review] = waitingReviews(initialRunState(run, [waiting]));
    const html = renderToStaticMarkup(
      <ReviewCard runId="run1" reviews={[review!]} nodeName={() => "Solver"} canAnswer />,
    );
    expect(html).toContain('data-testid="tool-review"');
    expect(html).toContain("function run(i) { return { vowels: 3 } }");
    expect(html).toContain(`sha256 ${"ab".repeat(32)}`);
    expect(html).toContain("1 of 2 tests passed");
    expect(html).toContain("no network");
    expect(html).toContain("written in 3 rounds");
    expect(html).toContain('data-testid="review-choice-approve"');
  });
});
