import { expect, test, type Page } from "@playwright/test";
import { baseURL, SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";

/**
 * The chat designer end to end, with the scripted model server as the offline demo runs it (its
 * fixtures hold the designer corpus: the transcripts of exactly these two requests, and the critic's
 * answer for the run): describe → proposal on the canvas → accept → save → run succeeds; then an edit
 * by chat → a diff with one added node → accept part of it (one undo step).
 */
const ARTICLE =
  "Write a research article on a topic: research it, outline it, have a critic check the outline and send it back until good, then write it";
const FACT_CHECK = "add a fact-checker between the writer and the end";
const SCRIPTED = `http://127.0.0.1:${SCRIPTED_PORT}`;

const diff = (page: Page, id: string) => page.getByTestId(`node-${id}`);

test("describe a workflow, accept the proposal, run it; then edit it by chat and accept part of the diff", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const rules = await page.request.get(`${SCRIPTED}/_scripted/rules`).then((r) => r.text());
  expect(rules, "the e2e scripted server loads lib/designer/fixtures/scripted").toContain("designer.n01-article");

  await signUpNewUser(page, "designer");
  await page.getByRole("link", { name: "New workflow" }).first().click();
  await page.waitForURL("**/workflows/new");
  await expect(page.getByText("Describe the system you want").first()).toBeVisible();
  await expect(page.getByTestId("template-gallery")).toBeVisible();
  await page.getByTestId("describe-input").fill(ARTICLE);
  await page.getByTestId("describe-submit").click();
  await page.waitForURL(/\/workflows\/[^/]+\/edit/);
  const editor = new EditorPage(page);
  const panel = page.getByTestId("designer-panel");

  // The stages stream into the chat; the proposal waits on the canvas as a diff.
  await expect(panel.getByTestId("designer-proposal")).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId("designer-user-message")).toHaveText(ARTICLE);
  await expect(panel.locator('[data-testid="designer-event"][data-type="stage_started"]').first()).toContainText(
    "Profiling the request",
  );
  await expect(panel.locator('[data-testid="designer-event"][data-type="proposal"]')).toContainText("Article writer");
  await expect(panel.locator('[data-testid="designer-event"][data-type="done"]')).toContainText("Ready");
  // the scripted model designs here, as in the offline demo: the chat says so, once per visit
  const notice = panel.locator('[data-testid="designer-event"][data-type="notice"]');
  await expect(notice).toContainText("Offline demo model");
  for (const id of ["research", "outline", "review", "write"])
    await expect(diff(page, id)).toHaveAttribute("data-diff", "added");
  await expect(editor.saveState()).toHaveText("Saved"); // nothing changed yet: the proposal is not the document

  await panel.getByTestId("designer-accept-all").click();
  await expect(panel.getByTestId("designer-proposal")).toBeHidden();
  await expect(editor.nodes()).toHaveCount(6);
  await expect(diff(page, "research")).not.toHaveAttribute("data-diff", /.+/);
  await expect(page.getByTestId("editor-title")).toHaveText("Article writer");
  // Accepting was one undoable step.
  await page.getByTestId("undo").click();
  await expect(editor.nodes()).toHaveCount(2);
  await page.getByTestId("redo").click();
  await expect(editor.nodes()).toHaveCount(6);
  await editor.save();

  // Run the accepted workflow (scripted answers: search + summary, drafts, the critic approves).
  await editor.tab("run");
  await page.getByTestId("run-input-topic").fill("Durable workflow engines");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });
  for (const id of ["research", "outline", "review", "write", "end"]) {
    await expect(diff(page, id)).toHaveAttribute("data-status", "succeeded");
  }

  // An edit by chat: a diff with one added node; untouched nodes keep their ids.
  await panel.getByTestId("designer-input").fill(FACT_CHECK);
  await panel.getByTestId("designer-send").click();
  await expect(panel.getByTestId("designer-proposal")).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.react-flow__node [data-diff="added"]')).toHaveCount(1);
  await expect(diff(page, "fact_check")).toHaveAttribute("data-diff", "added");
  await expect(page.locator('.react-flow__edge[data-id="write__done__end"]')).toHaveCount(1); // shown as removed

  // Accept part of it: the agent and the fact-check node with its edges, but keep writer → end.
  const rewire = panel.locator('[data-testid="designer-group"][data-key="node:write"]');
  await expect(rewire).toBeChecked();
  await rewire.uncheck();
  await panel.getByTestId("designer-accept-selected").click();
  await expect(panel.getByTestId("designer-proposal")).toBeHidden();
  await expect(panel.locator('[data-testid="designer-event"]').last()).toContainText("Accepted 2 of 3 changes");
  await expect(notice).toHaveCount(1);
  await expect(editor.node("fact_check")).toHaveCount(1);
  await expect(diff(page, "fact_check")).not.toHaveAttribute("data-diff", /.+/);
  await expect(page.locator('.react-flow__edge[data-id="write__done__fact_check"]')).toHaveCount(1);
  await expect(page.locator('.react-flow__edge[data-id="write__done__end"]')).toHaveCount(1);
  await expect(editor.nodes()).toHaveCount(7);
  await page.getByTestId("undo").click();
  await expect(editor.nodes()).toHaveCount(6);
  await expect(editor.node("fact_check")).toHaveCount(0);
});

test("the designer API refuses anonymous and invalid requests", async ({ page }) => {
  const anonymous = await page.request.post("/api/designer", {
    data: { message: "hello" },
    headers: { origin: baseURL },
  });
  expect(anonymous.status()).toBe(401);
  await signUpNewUser(page, "designer-api");
  const empty = await page.request.post("/api/designer", { data: { message: "" }, headers: { origin: baseURL } });
  expect(empty.status()).toBe(400);
  const badGraph = await page.request.post("/api/designer", {
    data: { message: "add a node", workflow: { nodes: "no" } },
    headers: { origin: baseURL },
  });
  expect(badGraph.status()).toBe(400);
});
