import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { RunPage } from "./pages/run-page";

/**
 * Run dashboards and share links against the real runtime: the web app, a run worker and the
 * scripted model server (playwright.config.ts webServer list). The scripted model answers solvers
 * after 3 s and the aggregator after 45 s, so the run is visibly live for a while.
 */
const MARKER = "e2e-slow-vote";
const SCRIPTED = `http://127.0.0.1:${SCRIPTED_PORT}`;

async function slowModel(request: APIRequestContext) {
  const res = await request.post(`${SCRIPTED}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [
        {
          id: "e2e-runs-aggregate",
          priority: 101,
          match: { anyMessage: { regex: `Problem: ${MARKER}[\\s\\S]*Candidate A:` } },
          reply: { text: "ANSWER: 42", delayMs: 45_000 },
        },
        {
          id: "e2e-runs-solve",
          priority: 100,
          match: { anyMessage: MARKER },
          reply: { text: "6 × 7 = 42\nANSWER: 42", delayMs: 3_000 },
        },
      ],
    },
  });
  expect(res.ok()).toBe(true);
}

/** Creates a workflow from the majority-vote template and starts a run from the page (same origin). */
async function startMajorityVote(page: Page): Promise<string> {
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

test("majority vote: live dashboard, parallel solvers then aggregator; share link live, revoked within 5 s; other users get 404", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await slowModel(request);
  await signUpNewUser(page, "runs-a");
  const runId = await startMajorityVote(page);

  const owner = new RunPage(page);
  await owner.goto(runId);
  // Live: the page follows the run into the aggregator (the fan-out itself is asserted on the recorded times below).
  await expect(owner.node("aggregate")).toHaveAttribute("data-status", "running", { timeout: 30_000 });
  for (const id of ["solve_a", "solve_b", "solve_c"])
    await expect(owner.node(id)).toHaveAttribute("data-status", "succeeded");

  const shareUrl = await owner.createShareLink();
  await page.keyboard.press("Escape");

  // A fresh browser context: no session, just the link.
  const anon = await browser.newContext();
  const viewer = await anon.newPage();
  await viewer.setViewportSize({ width: 1440, height: 900 });
  const res = await viewer.goto(shareUrl);
  expect(res?.status()).toBe(200);
  expect(res?.headers()["referrer-policy"]).toBe("no-referrer");
  expect(res?.headers()["x-robots-tag"]).toContain("noindex");
  expect(res?.headers()["cache-control"]).toContain("no-store");
  const shared = new RunPage(viewer);
  await expect(shared.dashboard()).toBeVisible();
  await expect(shared.node("aggregate")).toHaveAttribute("data-status", "running", { timeout: 30_000 });
  await expect(shared.status()).toHaveText("running");
  await expect(viewer.getByTestId("run-inputs")).toHaveCount(0);
  await expect(viewer.getByTestId("share-open")).toHaveCount(0);

  // Revoke while the aggregator still runs: the open share page stops within 5 s.
  await page.getByTestId("share-open").click();
  const revokedAt = Date.now();
  await owner.revokeFirstLink();
  await expect(viewer.getByTestId("share-revoked")).toBeVisible({ timeout: 5_000 });
  expect(Date.now() - revokedAt).toBeLessThan(5_000);
  await expect(shared.dashboard()).toHaveAttribute("data-live", "revoked");
  await page.keyboard.press("Escape");
  await anon.close();

  // The run ends; the recorded timestamps show the fan-out and the join.
  await expect(owner.status()).toHaveText("succeeded", { timeout: 60_000 });
  const [a, b, c, agg] = await Promise.all(["solve_a", "solve_b", "solve_c", "aggregate"].map((id) => owner.times(id)));
  const starts = [a!, b!, c!].map((t) => t.started);
  expect(Math.max(...starts) - Math.min(...starts), "solvers start together").toBeLessThan(1_000);
  expect(agg!.started, "aggregator after every solver").toBeGreaterThanOrEqual(
    Math.max(a!.finished, b!.finished, c!.finished),
  );

  // The list shows the run.
  await page.goto("/runs");
  await expect(page.getByTestId(`run-row-${runId}`)).toHaveAttribute("data-status", "succeeded");

  // User B: 404 on A's run page and on its event stream.
  const other = await browser.newContext();
  const pageB = await other.newPage();
  await signUpNewUser(pageB, "runs-b");
  expect((await pageB.goto(`/runs/${runId}`))?.status()).toBe(404);
  const stream = await pageB.evaluate(async (id) => (await fetch(`/api/runs/${id}/events`)).status, runId);
  expect(stream).toBe(404);
  await other.close();
});
