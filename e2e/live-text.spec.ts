import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { RunPage } from "./pages/run-page";

/**
 * Live token streaming in a real browser: the solvers of a majority vote write slowly (the scripted
 * model streams three words every 250 ms for about 47 s, under lib/llm's 60 s whole-call timeout), and the step inspector's text grows while
 * the step is still running, on the owner's dashboard and on a share page with content.
 */
const MARKER = "e2e-live-text";
const SCRIPTED = `http://127.0.0.1:${SCRIPTED_PORT}`;
const LONG = Array.from({ length: 75 }, (_, i) => `Step ${i + 1} of the working is written out here.`).join(" ");

async function slowWriter(request: APIRequestContext) {
  const res = await request.post(`${SCRIPTED}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [
        {
          id: "e2e-live-aggregate",
          priority: 111,
          // this spec's aggregator only: the rules stay loaded for the specs after it (runs.spec's slow aggregator)
          match: { anyMessage: `Problem: ${MARKER}` },
          reply: { text: "ANSWER: 42" },
        },
        {
          id: "e2e-live-solve",
          priority: 110,
          match: { anyMessage: MARKER },
          reply: { text: `${LONG}\nANSWER: 42`, pace: { chunkMs: 250, chunkChars: 18 } },
        },
      ],
    },
  });
  expect(res.ok()).toBe(true);
}

async function startRun(page: Page): Promise<string> {
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Majority vote/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowId = new URL(page.url()).pathname.split("/").pop()!;
  const started = await page.evaluate(
    async ([id, marker]) => {
      const res = await fetch(`/api/workflows/${id}/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ inputs: { problem: `${marker}: what is 6 × 7?` } }),
      });
      return { status: res.status, body: (await res.json()) as { run?: { id?: string } } };
    },
    [workflowId, MARKER] as const,
  );
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return started.body.run!.id!;
}

/** The inspector's live text grows twice while the step is still running (read from the page, not from the stored step). */
async function expectGrowingText(page: Page, run: RunPage, nodeId: string) {
  await run.node(nodeId).click();
  const live: Locator = page.getByTestId("step-live-text");
  await expect(live).toBeVisible({ timeout: 30_000 });
  let before = (await live.textContent())?.length ?? 0;
  for (let i = 0; i < 2; i++) {
    await expect.poll(async () => (await live.textContent())?.length ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
    before = (await live.textContent())?.length ?? 0;
    await expect(page.getByTestId("step-status")).toHaveText("running");
  }
  await expect(page.getByTestId(`node-writing-${nodeId}`)).toContainText("writing");
}

test("a slowly writing agent: the inspector's text grows before the step finishes, on the dashboard and on a share page with content", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await slowWriter(request);
  await signUpNewUser(page, "live-text");
  const runId = await startRun(page);

  const owner = new RunPage(page);
  await owner.goto(runId);
  await expect(owner.node("solve_a")).toHaveAttribute("data-status", "running", { timeout: 30_000 });
  // both pages open while the solvers write (a model call has 60 s: lib/llm's whole-call timeout)
  const shareUrl = await owner.createShareLink({ includeContent: true });
  await page.keyboard.press("Escape");
  const anon = await browser.newContext();
  const viewer = await anon.newPage();
  await viewer.setViewportSize({ width: 1440, height: 900 });
  await viewer.goto(shareUrl);
  const shared = new RunPage(viewer);
  await expect(shared.dashboard()).toBeVisible();

  await expectGrowingText(page, owner, "solve_a");
  await expectGrowingText(viewer, shared, "solve_b");

  // once the step ends its stored output replaces the live text
  await expect(owner.node("solve_a")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });
  await owner.node("solve_a").click();
  await expect(page.getByTestId("step-live-text")).toHaveCount(0);
  await expect(page.getByTestId("step-output")).toContainText("ANSWER: 42");
  await anon.close();
});
