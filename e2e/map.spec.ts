import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { RunPage } from "./pages/run-page";

/**
 * The map node against the real runtime and the scripted demo model: the "Research each sub-question
 * in parallel" template is created from the gallery and run; the planner answers three sub-questions,
 * the map researches each as its own step; the run's graph shows the map's items (n of m), the
 * timeline has one lane of item bars, and the step inspector opens item 3 and pages back to item 2.
 */
test("map: the sub-questions template runs, its node shows per-item progress and the inspector opens item 3", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "map");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Research each sub-question in parallel/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowId = page.url().split("/").at(-1)!;

  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: { question: "Are durable workflow engines worth it?" } }),
    });
    return { status: res.status, body: (await res.json()) as { run?: { id?: string } } };
  }, workflowId);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const run = new RunPage(page);
  await run.goto(started.body.run!.id!);

  // per-item progress on the map node: it counts up to all three done
  const progress = run.node("research").getByTestId("map-progress");
  await expect(progress).toBeVisible({ timeout: 60_000 });
  await expect(run.status()).toHaveText("succeeded", { timeout: 60_000 });
  await expect(progress).toHaveText("3 of 3 done");
  await expect(progress).toHaveAttribute("data-total", "3");
  // the timeline groups the items in one lane, one bar per item
  for (const item of [1, 2, 3]) await expect(run.bar("research.items", item)).toBeVisible();

  // the map's step lists its items; item 3 opens in the inspector, with its item and its answer
  await run.node("research").click();
  const inspector = page.getByTestId("step-inspector");
  await expect(inspector).toHaveAttribute("data-step", "research#1");
  await expect(inspector.getByTestId("step-output")).toContainText("count");
  await inspector.getByTestId("map-item-3").click();
  await expect(inspector).toHaveAttribute("data-step", "research.items#3");
  await expect(inspector).toContainText("item 3 of 3");
  await expect(inspector.getByTestId("step-status")).toHaveText("succeeded");
  await expect(inspector.getByTestId("step-output")).toContainText("Where do the sources disagree");
  await inspector.getByTestId("map-item-prev").click();
  await expect(inspector).toHaveAttribute("data-step", "research.items#2");
  await expect(inspector.getByTestId("map-item-2")).toHaveAttribute("aria-current", "true");
});
