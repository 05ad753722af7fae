import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { twoArticles } from "../lib/workflow/subflow-example";
import { e2eEnv, SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { SettingsPage } from "./pages/settings-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * README screenshots into docs/screenshots/: the workflows list and settings (light and dark), the
 * editor with the article-writer template as it opens (editor-light, editor-dark), a finished run's
 * dashboard with a step open in the inspector (run-light, run-dark) and the same run through a share
 * link with content (share-light, share-dark), and a workflow's page with a schedule, a webhook and a
 * notification URL that each did their part (workflow-light, workflow-dark), and a run of the
 * post-approval template waiting for its human review (review-light, review-dark), and a parent
 * running the Article writer twice as subflows: its editor with a subflow step inspected
 * (subflow-light, subflow-dark) and its finished run with the Subflows card (subflow-run-light). The run is real: web app, worker and the scripted model
 * of playwright.config.ts. Opt-in (it writes into the repository):
 * WEFT_SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts
 */
test.skip(!process.env.WEFT_SCREENSHOTS, "set WEFT_SCREENSHOTS=1 to refresh docs/screenshots");

const OUT = path.resolve(import.meta.dirname, "../docs/screenshots");

const SAMPLES = [
  {
    name: "Blog post pipeline",
    description: "Outline → draft → editor review loop (≤ 3 rounds) → publish",
    nodes: 6,
    versions: 3,
    ago: 5,
  },
  {
    name: "Support triage",
    description: "Classify a ticket, route to billing, tech or refunds, escalate on low confidence",
    nodes: 7,
    versions: 2,
    ago: 90,
  },
  {
    name: "Research assistant",
    description: "Orchestrator hands questions to a searcher and a summariser",
    nodes: 4,
    versions: 1,
    ago: 60 * 26,
  },
  {
    name: "Code review",
    description: "Parallel security and style reviewers joined into one verdict",
    nodes: 5,
    versions: 0,
    ago: 60 * 24 * 4,
  },
];

/** Inserts sample workflows for the account straight into the e2e database (display only). */
async function seedWorkflows(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: e2eEnv.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM "User" WHERE email = $1', [email]);
    const workspaceId = rows[0]?.id;
    if (!workspaceId) throw new Error("user not found");
    for (const s of SAMPLES) {
      const id = randomUUID();
      const at = new Date(Date.now() - s.ago * 60_000);
      const nodes = Array.from({ length: s.nodes }, (_, i) => ({
        id: `n${i}`,
        type: i === 0 ? "start" : i === s.nodes - 1 ? "end" : "agent",
      }));
      const draft = { schemaVersion: 1, name: s.name, description: s.description, nodes, edges: [] };
      await client.query(
        'INSERT INTO "Workflow" (id, "workspaceId", name, description, draft, "createdAt", "updatedAt") VALUES ($1,$2,$3,$4,$5,$6,$6)',
        [id, workspaceId, s.name, s.description, draft, at],
      );
      for (let v = 1; v <= s.versions; v++) {
        await client.query(
          'INSERT INTO "WorkflowVersion" (id, "workflowId", version, document, message) VALUES ($1,$2,$3,$4,$5)',
          [randomUUID(), id, v, draft, `v${v}`],
        );
      }
    }
  } finally {
    await client.end();
  }
}

async function shoot(page: Page, name: string, opts: { fullPage?: boolean; ready?: () => Promise<void> } = {}) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(new RegExp(theme));
    await opts.ready?.();
    await page.screenshot({ path: path.join(OUT, `${name}-${theme}.png`), fullPage: opts.fullPage ?? false });
  }
}

test("screenshots: workflows list and settings, light and dark", async ({ page }) => {
  fs.mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 760 });
  const account = await signUpNewUser(page, "screens");
  await seedWorkflows(account.email);
  await page.goto("/workflows");
  await expect(page.getByRole("link", { name: "Blog post pipeline" })).toBeVisible();
  await shoot(page, "workflows");

  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.addProvider({
    name: "OpenAI",
    baseUrl: "https://api.openai.com/v1",
    defaultModel: "gpt-4o-mini",
    apiKey: "sk-demo-not-a-real-key-9f2c",
  });
  await settings.addProvider({
    name: "Ollama (local)",
    baseUrl: "http://localhost:11434/v1",
    defaultModel: "llama3.1:8b",
    apiKey: "ollama-local-7b1e",
  });
  await shoot(page, "settings");
});

test("screenshots: the editor with the article-writer template, light and dark", async ({ page }) => {
  test.setTimeout(120_000);
  fs.mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 860 });
  await signUpNewUser(page, "editor-screens");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const editor = new EditorPage(page);
  await editor.goto(new URL(page.url()).pathname.split("/").pop()!);
  await shoot(page, "editor", {
    ready: async () => {
      await expect(editor.nodes().first()).toBeVisible();
      // the canvas takes the page's theme (React Flow's own class), not only the app's tokens
      const theme = await page.locator("html").getAttribute("class");
      await expect(page.locator(".react-flow")).toHaveClass(/\bdark\b/.test(theme ?? "") ? /\bdark\b/ : /\blight\b/);
      // the view the editor opens with (legible text, the minimap for the rest): no fit, no layout
      await expect(page.getByTestId("minimap")).toBeVisible();
      await page.mouse.move(0, 0);
    },
  });
});

const MARKER = "screens-vote";

test("screenshots: a finished run with a step inspected (light, dark) and its share page", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  // quick, distinct answers so the dashboard shows a realistic finished majority vote
  const rules = [
    {
      id: "screens-aggregate",
      priority: 111,
      match: { anyMessage: { regex: `Problem: ${MARKER}[\\s\\S]*Candidate A:` } },
      reply: { text: "All three candidates agree.\nANSWER: 42", delayMs: 400 },
    },
    {
      id: "screens-solve",
      priority: 110,
      match: { anyMessage: MARKER },
      reply: { text: "6 × 7: six sevens are 42.\nANSWER: 42", delayMs: 700 },
    },
  ];
  expect(
    (await request.post(`http://127.0.0.1:${SCRIPTED_PORT}/_scripted/fixtures`, { data: { mode: "add", rules } })).ok(),
  ).toBe(true);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "screens-run");
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
      return (await res.json()) as { run: { id: string } };
    },
    [workflowId, MARKER] as const,
  );
  const run = new RunPage(page);
  await run.goto(started.run.id);
  await expect(run.status()).toHaveText("succeeded", { timeout: 90_000 });
  const inspect = async () => {
    await expect(run.status()).toHaveText("succeeded", { timeout: 30_000 });
    await run.bar("solve_a").click();
    await expect(page.getByTestId("step-prompt")).toBeVisible();
    // the click scrolled the page, and the sticky header would be drawn mid-page
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.mouse.move(0, 0);
  };
  await shoot(page, "run", { fullPage: true, ready: inspect });

  await inspect();
  const shareUrl = await run.createShareLink({ includeContent: true });
  await page.keyboard.press("Escape");
  const anon = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const viewer = await anon.newPage();
  await viewer.goto(shareUrl);
  const shared = new RunPage(viewer);
  await shoot(viewer, "share", {
    fullPage: true,
    ready: async () => {
      await expect(shared.status()).toHaveText("succeeded", { timeout: 30_000 });
      await shared.bar("solve_a").click();
      await expect(viewer.getByTestId("step-prompt")).toBeVisible();
      await viewer.evaluate(() => window.scrollTo(0, 0));
      await viewer.mouse.move(0, 0);
    },
  });
  await anon.close();
});

test("screenshots: a workflow's page with a schedule, a webhook and a notification URL (light, dark)", async ({
  page,
}) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  const receiver = http.createServer((req, res) => void req.resume().on("end", () => res.writeHead(204).end()));
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signUpNewUser(page, "screens-workflow");
    await page
      .getByRole("list", { name: "Templates" })
      .getByRole("button", { name: /Article writer/ })
      .click();
    await page.waitForURL(/\/workflows\/[^/]+$/);
    const workflowId = new URL(page.url()).pathname.split("/").pop()!;

    await page.getByRole("button", { name: "Add schedule" }).click();
    await page.getByRole("dialog", { name: "Add schedule" }).getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByRole("dialog", { name: "Add schedule" }).getByRole("button", { name: "Add schedule" }).click();

    await page.getByRole("button", { name: "Add URL" }).click();
    const notify = page.getByRole("dialog", { name: "Add notification URL" });
    await notify.getByLabel("URL").fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/weft`);
    await notify.getByRole("button", { name: "Add URL" }).click();
    await notify.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: "Add webhook" }).click();
    const hook = page.getByRole("dialog", { name: "Add webhook" });
    await hook.getByLabel("Name").fill("Editorial calendar");
    await hook.getByRole("button", { name: "Add webhook" }).click();
    const url = await hook.getByTestId("new-webhook-url").inputValue();
    await hook.getByRole("button", { name: "Done" }).click();

    // a first run saves version 1; then the webhook starts one and waits for it, and the notification goes out
    const status = await page.evaluate(
      async ([id, hookUrl]) => {
        await fetch(`/api/workflows/${id}/runs?wait=45`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ inputs: { topic: "Durable workflow engines" } }),
        });
        const res = await fetch(`${hookUrl}?wait=45`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ topic: "Webhooks that wait" }),
        });
        return res.status;
      },
      [workflowId, url] as const,
    );
    expect(status).toBe(200);
    await page.reload();
    await expect(page.getByTestId("notifier-last")).toContainText("Delivered", { timeout: 20_000 });
    await shoot(page, "workflow", {
      fullPage: true,
      ready: async () => {
        await expect(page.getByTestId("webhook-last")).toContainText("the run");
        // a reload keeps the scroll position, and the sticky header would be drawn mid-page
        await page.evaluate(() => window.scrollTo(0, 0));
      },
    });
  } finally {
    await new Promise<void>((r) => receiver.close(() => r()));
  }
});

test("screenshots: a run waiting for its human review (light, dark)", async ({ page }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "screens-review");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Post with approval/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowId = new URL(page.url()).pathname.split("/").pop()!;
  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: { topic: "our durable workflow engine" } }),
    });
    return (await res.json()) as { run: { id: string } };
  }, workflowId);
  const run = new RunPage(page);
  await run.goto(started.run.id);
  await shoot(page, "review", {
    fullPage: true,
    ready: async () => {
      await expect(run.status()).toHaveText("waiting", { timeout: 60_000 });
      await run.review("review").getByTestId("review-field-note").fill("Mention that a killed worker loses nothing.");
    },
  });
});

test("screenshots: subflow — a parent running the Article writer twice, its editor (light, dark) and its finished run", async ({
  page,
}) => {
  test.setTimeout(240_000);
  fs.mkdirSync(OUT, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "screens-subflow");
  const editor = new EditorPage(page);

  // The child: the Article writer from its template, saved as version 1 (subflows run saved versions).
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const childId = new URL(page.url()).pathname.split("/").pop()!;
  await editor.goto(childId);
  await page.getByTestId("save-version").click();
  await expect(page.getByText("Saved version 1")).toBeVisible();

  // The parent, imported into a blank workflow and saved as a version too.
  const parentId = await new WorkflowsPage(page).createBlank();
  await editor.goto(parentId);
  await page.getByTestId("import-file").setInputFiles({
    name: "two-articles.weft.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(twoArticles(childId))),
  });
  await expect(editor.nodes()).toHaveCount(4);
  await editor.save();
  await page.getByTestId("save-version").click();
  await expect(page.getByText("Saved version 1")).toBeVisible();

  await shoot(page, "subflow", {
    ready: async () => {
      await expect(editor.nodes().first()).toBeVisible();
      await editor.fit();
      await editor.selectNode("first_article");
      await expect(page.getByTestId("subflow-workflow")).toHaveValue(childId);
      await expect(page.getByTestId("subflow-input-topic-value")).toHaveValue("{{inputs.first}}");
      await expect(page.getByTestId("subflow-outputs")).toContainText("{{nodes.first_article.output.article}}");
      await page.mouse.move(0, 0);
    },
  });

  // The parent's run: both children run the Article writer on the scripted model, then it ends.
  const started = await page.evaluate(async (id) => {
    const res = await fetch(`/api/workflows/${id}/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ inputs: { first: "Durable workflow engines", second: "Webhooks that wait" } }),
    });
    return { status: res.status, body: (await res.json()) as { run?: { id?: string } } };
  }, parentId);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  await page.evaluate(() => localStorage.setItem("theme", "light"));
  const run = new RunPage(page);
  await run.goto(started.body.run!.id!);
  await expect(page.locator("html")).toHaveClass(/light/);
  await expect(run.status()).toHaveText("succeeded", { timeout: 90_000 });
  await expect(page.getByTestId("subflow-runs").getByTestId("subflow-run-link")).toHaveCount(2);
  await run.bar("first_article").click();
  await expect(page.getByTestId("step-subflow").getByRole("link")).toBeVisible();
  // the click scrolled the page, and the sticky header would be drawn mid-page
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(OUT, "subflow-run-light.png"), fullPage: true });
});
