import { expect, test, type Page } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";

/**
 * "Simplify this workflow" end to end on the offline demo's scripted model: a template's workflow
 * and dataset (Datasets → New dataset from template), the Designer panel's Simplify button, each
 * merge evaluated on the dataset by the real app (engine in memory, scripted model over HTTP). The
 * majority vote's merged solvers are kept and accepted as a diff; the article writer's merged states
 * are rejected by the evaluation and not offered.
 */
const tag = `e2e-simplify-${Date.now().toString(36)}`;

/** Creates a template's workflow and dataset through the Datasets page; answers the workflow's id. */
async function fromTemplate(page: Page, title: string): Promise<string> {
  await page.goto("/datasets");
  const form = page.getByTestId("dataset-from-template");
  await form.getByLabel("Template").selectOption({ label: title });
  await form.getByRole("button", { name: "New dataset from template" }).click();
  await page.waitForURL(/\/datasets\/[^/]+$/);
  const datasetId = new URL(page.url()).pathname.split("/").pop()!;
  const list = await page.evaluate(
    async () => (await (await fetch("/api/datasets")).json()) as { datasets: { id: string; workflowId: string }[] },
  );
  return list.datasets.find((d) => d.id === datasetId)!.workflowId;
}

test("simplify: a kept merge accepted as a diff, a rejected one not offered", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await signUpNewUser(page, tag);
  const editor = new EditorPage(page);

  const vote = await fromTemplate(page, "Majority vote");
  await editor.goto(vote);
  await expect(editor.nodes()).toHaveCount(6);
  await page.getByTestId("designer-toggle").click();
  await page.getByTestId("designer-simplify").click();
  const kept = page.getByTestId("simplify-proposal");
  await expect(kept).toHaveCount(1, { timeout: 60_000 });
  await expect(kept).toHaveAttribute("data-verdict", "kept");
  await expect(kept).toContainText("calls 12 → 6");
  const proposal = page.getByTestId("designer-proposal");
  await expect(proposal).toBeVisible();
  await expect(page.getByTestId("designer-proposal-notes")).toContainText("Expected saving per run: 2 model call(s)");
  await page.getByTestId("designer-accept-all").click();
  await expect(proposal).toHaveCount(0);
  await expect(editor.nodes()).toHaveCount(4);
  await expect(editor.node("solve_b")).toHaveCount(0);
  await editor.save();

  const article = await fromTemplate(page, "Article writer");
  await editor.goto(article);
  await page.getByTestId("designer-toggle").click();
  await page.getByTestId("designer-simplify").click();
  const rejected = page.getByTestId("simplify-proposal");
  await expect(rejected).toHaveCount(1, { timeout: 90_000 });
  await expect(rejected).toHaveAttribute("data-verdict", "rejected");
  await expect(rejected).toContainText("score fell from 1 to 0.5");
  await expect(rejected.getByTestId("simplify-show")).toHaveCount(0);
  await expect(page.getByTestId("designer-proposal")).toHaveCount(0);
});
