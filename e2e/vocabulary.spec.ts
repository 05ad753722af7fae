import { expect, test, type Page } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { instantiateTemplate } from "../lib/workflow/templates";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * One vocabulary, in a real browser: the same finished run on its dashboard and on its share page
 * shows every node with the same words (title, kind, join badge, facts, status) in the same colours,
 * the same run status and the same timeline. The workflow is the majority vote whose aggregator
 * starts on any of its three inputs — the join the share page used to word differently.
 */
const MARKER = "e2e-vocabulary";

/** Per node: its text, and the colours of its ring and status dot; the run's status; per timeline bar: status and colour. */
function wordsAndColours(page: Page) {
  return page.evaluate(() => {
    const nodes = Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>("[data-testid=run-graph] [data-kind]")].map((el) => {
        const dot = el.querySelector("[data-testid=status-badge] span");
        return [
          el.dataset.testid,
          {
            text: el.innerText.replace(/\s+/g, " ").trim(),
            ring: getComputedStyle(el).boxShadow,
            dot: dot ? getComputedStyle(dot).backgroundColor : "",
          },
        ];
      }),
    );
    const bars = Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>("[data-testid^=bar-]")].map((b) => [
        b.dataset.testid,
        `${b.dataset.status} ${getComputedStyle(b).backgroundColor}`,
      ]),
    );
    const status = document.querySelector<HTMLElement>("[data-testid=run-status]")!;
    return { nodes, bars, status: `${status.innerText} ${getComputedStyle(status).color}` };
  });
}

test("the dashboard and the share page of one run show the same words and colours", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const rules = [
    {
      id: "vocabulary-aggregate",
      priority: 121,
      match: { anyMessage: { regex: `Problem: ${MARKER}[\\s\\S]*Candidate A:` } },
      reply: { text: "ANSWER: 42", delayMs: 200 },
    },
    {
      id: "vocabulary-solve",
      priority: 120,
      match: { anyMessage: MARKER },
      reply: { text: "6 × 7 = 42\nANSWER: 42", delayMs: 300 },
    },
  ];
  expect(
    (await request.post(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/fixtures`, { data: { mode: "add", rules } })).ok(),
  ).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "vocabulary");

  // The majority vote, its aggregator joining on any input, imported into a blank workflow.
  const template = instantiateTemplate("majority-vote")!;
  const doc = {
    ...template,
    nodes: template.nodes.map((n) => (n.id === "aggregate" ? { ...n, join: "any" as const } : n)),
  };
  const workflowId = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page
    .getByTestId("import-file")
    .setInputFiles({ name: "vote.weft.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(doc)) });
  await expect(editor.node("aggregate").getByTestId("join-badge")).toHaveText("any of 3");
  await editor.save();

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
  const owner = new RunPage(page);
  await owner.goto(started.body.run!.id!);
  await expect(owner.status()).toHaveText("succeeded", { timeout: 90_000 });
  await expect(owner.node("aggregate").getByTestId("join-badge")).toHaveText("any of 3");
  const shareUrl = await owner.createShareLink();
  await page.keyboard.press("Escape");
  // after the dialog: the dashboard as it stands, with the run finished
  await page.reload();
  await expect(owner.status()).toHaveText("succeeded");
  // the status arrives with the page; the graph's nodes only once React Flow has measured them
  const drawn = (p: Page) => p.locator("[data-testid=run-graph] [data-kind]");
  await expect(drawn(page)).toHaveCount(doc.nodes.length);
  const dashboard = await wordsAndColours(page);

  const anon = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const viewer = await anon.newPage();
  await viewer.goto(shareUrl);
  const shared = new RunPage(viewer);
  await expect(shared.status()).toHaveText("succeeded", { timeout: 30_000 });
  await expect(shared.node("aggregate").getByTestId("join-badge")).toHaveText("any of 3");
  await expect(viewer.locator("[data-testid^=bar-]")).toHaveCount(Object.keys(dashboard.bars).length);
  await expect(drawn(viewer)).toHaveCount(doc.nodes.length);
  const share = await wordsAndColours(viewer);
  await anon.close();

  expect(Object.keys(dashboard.nodes).sort()).toEqual(doc.nodes.map((n) => `node-${n.id}`).sort());
  expect(share).toEqual(dashboard);
});
