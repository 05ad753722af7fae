import { expect, test, type Page } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * Recovery against the real runtime: a run fails at its second agent (the scripted model answers
 * that step with a 400 once); the owner clicks "Retry from failed step", watches the retry succeed
 * with the first step reused, opens the lineage comparison, then forks the retry at the first step
 * with an edited output and sees the fork's result carry the edit.
 */
const tag = `e2e-recovery-${Date.now().toString(36)}`;

const workflow = {
  schemaVersion: 1,
  name: "Recoverable chain",
  outputs: [{ key: "result", type: "string" }],
  agents: ["first", "second", "third"].map((key) => ({ key, name: key, instructions: `[[${tag}-${key}]] Answer.` })),
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 120 } },
    { id: "first", type: "agent", name: "First", agent: "first", task: "Begin.", position: { x: 260, y: 120 } },
    {
      id: "second",
      type: "agent",
      name: "Second",
      agent: "second",
      task: "{{nodes.first.output}}",
      position: { x: 520, y: 120 },
    },
    {
      id: "third",
      type: "agent",
      name: "Third",
      agent: "third",
      task: "{{nodes.second.output}}",
      position: { x: 780, y: 120 },
    },
    { id: "end", type: "end", position: { x: 1040, y: 120 }, outputs: { result: "{{nodes.third.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "first" },
    { id: "e2", source: "first", sourceHandle: "done", target: "second" },
    { id: "e3", source: "second", sourceHandle: "done", target: "third" },
    { id: "e4", source: "third", sourceHandle: "done", target: "end" },
  ],
};

async function createWorkflow(page: Page): Promise<string> {
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);
  await page.getByTestId("import-file").setInputFiles({
    name: "recoverable.weft.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(workflow)),
  });
  await expect(editor.nodes()).toHaveCount(5);
  await editor.save();
  return id;
}

test("a failed run is retried from its failed step, succeeds, and its lineage diff shows what was reused; a fork carries an edited output", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const rule = (key: string, extra: Record<string, unknown> = {}) => ({
    id: `${tag}-${key}`,
    priority: 100,
    match: { system: `[[${tag}-${key}]]` },
    reply: { text: `${key}(` + "{{lastUser}})" },
    ...extra,
  });
  const rules = await request.post(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [
        rule("first"),
        rule("second", { fault: { kind: "http", status: 400, message: "rejected once" }, times: 1 }),
        rule("third"),
      ],
    },
  });
  expect(rules.ok()).toBe(true);
  await signUpNewUser(page, "recovery");
  const workflowId = await createWorkflow(page);

  // The run fails at its second step.
  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: {} }),
    });
    return (await res.json()) as { run: { id: string } };
  }, workflowId);
  const run = new RunPage(page);
  await run.goto(started.run.id);
  await expect(run.status()).toHaveText("failed", { timeout: 60_000 });
  await expect(page.getByTestId("run-reason")).toContainText('Step "second"');
  await expect(run.bar("second")).toHaveAttribute("data-status", "failed");

  // Retry from the failed step: the first step is reused, the second and third run.
  await page.getByTestId("run-retry").click();
  await expect(page.getByTestId("retry-dialog")).toBeVisible();
  await expect(page.getByRole("dialog")).toContainText("reuses the 2 steps");
  await page.getByTestId("retry-start").click();
  await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(started.run.id));
  const retryId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(run.status()).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("run-outputs")).toContainText("third(second(first(Begin.)))");
  await expect(run.bar("first")).toHaveAttribute("data-reused", "reused");
  await expect(run.bar("second")).not.toHaveAttribute("data-reused", /.*/);
  await run.bar("first").click();
  await expect(page.getByTestId("step-reused")).toContainText("Reused");
  await expect(page.getByTestId("run-lineage")).toBeVisible();
  await expect(page.getByTestId("lineage-chain")).toContainText(started.run.id.slice(0, 8));

  // The lineage diff: the source and its retry, step by step.
  await page.getByTestId("compare-source").click();
  await page.waitForURL(/\/runs\/compare\?a=/);
  await expect(page.getByTestId("run-comparison")).toBeVisible();
  await expect(page.getByTestId("compare-row-first-1")).toHaveAttribute("data-verdict", "same");
  await expect(page.getByTestId("compare-row-first-1").getByTestId("compare-reused")).toHaveText("reused");
  await expect(page.getByTestId("compare-row-second-1")).toHaveAttribute("data-verdict", "changed");
  await expect(page.getByTestId("compare-row-third-1")).toHaveAttribute("data-verdict", "only_right");
  await expect(page.getByTestId("compare-right-outputs")).toContainText("third(second(first(Begin.)))");

  // Fork the retry at its first step with an edited output: the rest runs with the edit.
  await run.goto(retryId);
  await run.bar("first").click();
  await page.getByTestId("step-fork").click();
  const editor = page.getByTestId("fork-output");
  await editor.fill("{ not json");
  await expect(page.getByTestId("fork-invalid")).toContainText("Not valid JSON");
  await expect(page.getByTestId("fork-start")).toBeDisabled();
  await editor.fill(JSON.stringify("EDITED"));
  await page.getByTestId("fork-start").click();
  await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(retryId));
  await expect(run.status()).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("run-outputs")).toContainText("third(second(EDITED))");
  await expect(run.bar("first")).toHaveAttribute("data-reused", "edited");
  await expect(page.getByTestId("lineage-chain")).toContainText("forked at First");

  // The runs list shows the lineage.
  await page.goto("/runs");
  await expect(page.getByTestId(`run-row-${retryId}`).getByTestId("run-lineage")).toContainText(
    `Retry of ${started.run.id.slice(0, 8)}`,
  );
  await expect(page.getByTestId(`run-row-${started.run.id}`).getByTestId("run-derived")).toContainText("+1 derived");
});
