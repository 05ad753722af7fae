import { expect, test, type Page } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * Evaluations end to end: two runs of a workflow (one per version) go into a dataset from their run
 * pages, a CSV adds three rows (after a CSV with a bad row is refused with its line, storing
 * nothing), an experiment runs both versions over the five rows on the real worker and scripted
 * model, its results show the scores and regressions, and one row opens its run comparison.
 */
const tag = `e2e-evals-${Date.now().toString(36)}`;

const doc = (version: string) => ({
  schemaVersion: 1,
  name: "Yes or no",
  inputs: [{ key: "question", type: "text", required: true }],
  outputs: [{ key: "answer", type: "string" }],
  agents: [{ key: "solver", name: "Solver", instructions: `[[${tag}-${version}]] Answer yes or no.` }],
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 120 } },
    {
      id: "solve",
      type: "agent",
      name: "Solve",
      agent: "solver",
      task: "{{inputs.question}}",
      position: { x: 260, y: 120 },
    },
    { id: "end", type: "end", position: { x: 520, y: 120 }, outputs: { answer: "{{nodes.solve.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "solve" },
    { id: "e2", source: "solve", sourceHandle: "done", target: "end" },
  ],
});

/** Imports `version`'s document into the editor, saves it and runs it once; answers the run and the version it ran. */
async function saveAndRun(
  page: Page,
  workflowId: string,
  version: string,
): Promise<{ runId: string; version: number }> {
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("import-file").setInputFiles({
    name: `${version}.weft.json`,
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(doc(version))),
  });
  await expect(editor.nodes()).toHaveCount(3);
  await editor.save();
  const started = await page.evaluate(
    async ({ id, question }) => {
      const res = await fetch(`/api/workflows/${id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ inputs: { question } }),
      });
      return (await res.json()) as { run: { id: string; version: number } };
    },
    { id: workflowId, question: `Is ${version} the first?` },
  );
  const run = new RunPage(page);
  await run.goto(started.run.id);
  await expect(run.status()).toHaveText("succeeded", { timeout: 60_000 });
  return { runId: started.run.id, version: started.run.version };
}

test("a dataset from two runs and a CSV; an experiment on two versions; its results; one row's run comparison", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const rules = await request.post(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [
        { id: `${tag}-v1`, priority: 100, match: { system: `[[${tag}-v1]]` }, reply: { text: "yes" } },
        { id: `${tag}-v2`, priority: 100, match: { system: `[[${tag}-v2]]` }, reply: { text: "no" } },
      ],
    },
  });
  expect(rules.ok()).toBe(true);
  await signUpNewUser(page, "evals");
  const workflowId = await new WorkflowsPage(page).createBlank();
  const first = await saveAndRun(page, workflowId, "v1");
  const second = await saveAndRun(page, workflowId, "v2");
  expect(second.version).toBeGreaterThan(first.version);

  // A dataset on the workflow's inputs, grown from the two runs' pages.
  await page.goto("/datasets");
  const create = page.getByTestId("dataset-create");
  await create.getByLabel("Dataset name").fill("Yes questions");
  await create.getByLabel("Workflow").selectOption({ label: "Yes or no" });
  await create.getByRole("button", { name: "Create dataset" }).click();
  await page.waitForURL(/\/datasets\/[^/]+$/);
  const datasetUrl = page.url();
  for (const { runId } of [first, second]) {
    await page.goto(`/runs/${runId}`);
    const add = page.getByTestId("add-to-dataset");
    await add.getByRole("button", { name: "Add to dataset" }).click();
    await expect(add.getByRole("status")).toContainText("Added to the dataset");
  }
  await page.goto(datasetUrl);
  await expect(page.getByTestId("dataset-row")).toHaveCount(2);

  // A CSV with a bad row is refused with its line and stores nothing; the good one adds three rows.
  const importForm = page.getByTestId("dataset-import");
  await importForm.getByTestId("dataset-import-file").setInputFiles({
    name: "bad.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("question,expected\nIs the sky blue?,yes\n,yes\n"),
  });
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("dataset-import-error")).toHaveText(["Row 2 (line 3): question: is required"]);
  await expect(page.getByTestId("dataset-row")).toHaveCount(2);
  const csv = "question,expected,tags\nIs water wet?,yes,easy\nIs fire hot?,yes,easy\nIs ice cold?,yes,\n";
  await importForm
    .getByTestId("dataset-import-file")
    .setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("dataset-import-ok")).toContainText("3 rows imported");
  await expect(page.getByTestId("dataset-row")).toHaveCount(5);

  // An experiment on both versions.
  const form = page.getByTestId("experiment-form");
  await form.getByTestId(`experiment-version-${first.version}`).check();
  await form.getByTestId(`experiment-version-${second.version}`).check();
  await form.getByTestId("experiment-evaluators").fill(
    JSON.stringify([
      { kind: "exact", name: "exact", ignoreCase: true, weight: 2 },
      { kind: "judge", name: "judge", rubric: "Is the answer right?", threshold: 0.5 },
    ]),
  );
  await form.getByRole("button", { name: "Start experiment" }).click();
  await page.waitForURL(/\/experiments\/[^/]+$/);
  const results = page.getByTestId("experiment-results");
  await expect(results).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  await expect(page.getByTestId("experiment-progress")).toContainText("10 of 10 scored");
  // v1 answers "yes": every row but the one taken from v2's run ("no"); v2 only that one
  await expect(page.getByTestId("aggregate-0")).toContainText("pass rate 80 %");
  await expect(page.getByTestId("aggregate-1")).toContainText("pass rate 20 %");
  await expect(page.getByTestId("experiment-regressions")).toHaveText("4 regressions");
  const csvRow = page.getByTestId("result-row-3");
  await expect(csvRow.getByTestId("cell-0").getByTestId("cell-verdict")).toHaveText("pass");
  await expect(csvRow.getByTestId("cell-1").getByTestId("cell-verdict")).toHaveText("fail");
  await expect(csvRow.getByTestId("cell-1")).toHaveAttribute("data-regression", "true");
  await csvRow.getByTestId("cell-1").getByText("evaluators").click();
  await expect(csvRow.getByTestId("cell-1").getByTestId("judge-reasoning")).toContainText("Scripted judge");

  // One row's run comparison: the two versions' runs side by side.
  await csvRow.getByTestId("row-compare").click();
  await page.waitForURL(/\/runs\/compare\?a=/);
  await expect(page.getByTestId("run-comparison")).toBeVisible();
  await expect(page.getByTestId("compare-row-solve-1")).toHaveAttribute("data-verdict", "changed");
  await expect(page.getByTestId("compare-left-outputs")).toContainText("yes");
  await expect(page.getByTestId("compare-right-outputs")).toContainText("no");
  const diff = page.getByTestId("compare-row-solve-1").getByTestId("value-diff-output");
  await expect(diff.getByTestId("diff-removed")).toHaveText("yes");
  await expect(diff.getByTestId("diff-added")).toHaveText("no");
});
