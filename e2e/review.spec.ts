import { expect, test, type Page } from "@playwright/test";
import { baseURL, SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * Human review on the run page against the real runtime: a draft agent (scripted model) feeds a
 * review that parks the run as `waiting`; the owner answers on the page (a missing required field is
 * refused, Approve ends the run with the note in its outputs, Reject aborts a second run); a share
 * link shows the question without the form.
 */
const MARKER = "e2e-human-review";
const DRAFT = "Owls hunt at night.";

const workflow = {
  schemaVersion: 1,
  name: "Reviewed post",
  outputs: [
    { key: "decision", type: "string" },
    { key: "note", type: "string" },
  ],
  agents: [{ key: "writer", name: "Writer", instructions: "Write one line." }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 160 } },
    {
      id: "draft",
      type: "agent",
      name: "Draft",
      agent: "writer",
      task: `${MARKER}: draft one line about owls.`,
      position: { x: 280, y: 160 },
    },
    {
      id: "review",
      type: "human",
      name: "Editor review",
      prompt: "Publish {{nodes.draft.output}}?",
      position: { x: 560, y: 160 },
      branches: [
        { id: "approve", label: "Approve" },
        { id: "reject", label: "Reject" },
      ],
      fields: [{ key: "note", type: "string", description: "A note for the record", required: true }],
    },
    {
      id: "end",
      type: "end",
      position: { x: 840, y: 80 },
      outputs: { decision: "{{nodes.review.output.choice}}", note: "{{nodes.review.output.values.note}}" },
    },
    { id: "stop", type: "abort", position: { x: 840, y: 240 }, reason: "Rejected in review" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "draft" },
    { id: "e2", source: "draft", sourceHandle: "done", target: "review" },
    { id: "e3", source: "review", sourceHandle: "approve", target: "end" },
    { id: "e4", source: "review", sourceHandle: "reject", target: "stop" },
  ],
};

/** Imports the workflow into a blank one through the editor and saves it; returns its id. */
async function createWorkflow(page: Page): Promise<string> {
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);
  await page.getByTestId("import-file").setInputFiles({
    name: "reviewed.weft.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(workflow)),
  });
  await expect(editor.nodes()).toHaveCount(5);
  await editor.save();
  return id;
}

async function startRun(page: Page, workflowId: string): Promise<string> {
  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: {} }),
    });
    return { status: res.status, body: (await res.json()) as { run?: { id?: string } } };
  }, workflowId);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body.run!.id!;
}

test("human review: the owner answers on the run page (required field, approve, reject); a share link shows the question only", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const rules = await request.post(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [{ id: "e2e-review-draft", priority: 100, match: { anyMessage: MARKER }, reply: { text: DRAFT } }],
    },
  });
  expect(rules.ok()).toBe(true);
  await signUpNewUser(page, "review");
  const workflowId = await createWorkflow(page);

  // Run 1: waits at the review with the rendered question.
  const first = await startRun(page, workflowId);
  const owner = new RunPage(page);
  await owner.goto(first);
  await expect(owner.status()).toHaveText("waiting", { timeout: 30_000 });
  const review = owner.review("review");
  await expect(review).toBeVisible();
  await expect(review).toContainText("Editor review");
  await expect(review.getByTestId("review-prompt")).toHaveText(`Publish ${DRAFT}?`);
  await expect(owner.bar("review")).toHaveAttribute("data-status", "waiting");
  await expect(owner.node("review")).toHaveAttribute("data-status", "waiting");

  // A share link with content shows the question, without the form.
  const shareUrl = await owner.createShareLink({ includeContent: true });
  await page.keyboard.press("Escape");
  const anon = await browser.newContext();
  const viewer = await anon.newPage();
  await viewer.goto(shareUrl);
  const shared = new RunPage(viewer);
  await expect(shared.status()).toHaveText("waiting");
  await expect(shared.review("review").getByTestId("review-prompt")).toHaveText(`Publish ${DRAFT}?`);
  await expect(shared.review("review").getByTestId("review-state")).toHaveText("Waiting for an answer");
  await expect(viewer.locator("[data-testid^=review-choice-]")).toHaveCount(0);
  await expect(viewer.locator("[data-testid^=review-field-]")).toHaveCount(0);
  await anon.close();

  // The required note left empty: refused on the page; the server refuses it too; still waiting.
  await review.getByTestId("review-choice-approve").click();
  await expect(review.getByTestId("review-error")).toBeVisible();
  await expect(review.getByText("is required")).toBeVisible();
  const refused = await page.request.post(`/api/runs/${first}/answer`, {
    data: { nodeId: "review", choice: "approve", values: {} },
    headers: { origin: baseURL },
  });
  expect(refused.status()).toBe(400);
  await expect(owner.status()).toHaveText("waiting");

  // Approve with a note: the run resumes and ends with the answer in its outputs.
  await review.getByTestId("review-field-note").fill("ship it");
  await review.getByTestId("review-comment").fill("Nice and short.");
  await review.getByTestId("review-choice-approve").click();
  await expect(page.getByText('Answered "Approve"')).toBeVisible();
  await expect(owner.status()).toHaveText("succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("reviews")).toHaveCount(0);
  await expect(page.getByTestId("run-outputs")).toContainText("ship it");
  await expect(page.getByTestId("run-outputs")).toContainText("approve");
  await owner.bar("review").click();
  await expect(page.getByTestId("step-status")).toHaveText("succeeded");
  await expect(page.getByTestId("step-output")).toContainText("Nice and short.");
  await expect(page.getByTestId("step-branch")).toContainText("approve");
  // A second answer is a conflict.
  const again = await page.request.post(`/api/runs/${first}/answer`, {
    data: { nodeId: "review", choice: "reject", values: { note: "late" } },
    headers: { origin: baseURL },
  });
  expect(again.status()).toBe(409);

  // Run 2: Reject aborts it.
  const second = await startRun(page, workflowId);
  await owner.goto(second);
  await expect(owner.status()).toHaveText("waiting", { timeout: 30_000 });
  // the navigation counts runs waiting for a review and links to them
  await page.reload();
  await expect(page.getByTestId("nav-waiting")).toHaveText("1 waiting");
  await expect(page.getByTestId("nav-waiting")).toHaveAttribute("href", "/runs?status=waiting");
  await owner.review("review").getByTestId("review-field-note").fill("not now");
  await owner.review("review").getByTestId("review-choice-reject").click();
  await expect(owner.status()).toHaveText("aborted", { timeout: 30_000 });
  await expect(page.getByTestId("run-reason")).toContainText("Rejected in review");
  await expect(page.getByTestId("reviews")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("nav-waiting")).toHaveCount(0);
});
