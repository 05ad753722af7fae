import fs from "node:fs/promises";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

test.use({ viewport: { width: 1600, height: 1000 } });

/** Builds scenario A (article writer) by drag and drop; returns the node ids by role. */
async function buildArticleWriter(page: Page, editor: EditorPage) {
  // A new workflow is start → end; take that edge out first.
  await editor.selectEdge(await editor.edgeId("start", "end"));
  await page.keyboard.press("Delete");
  await expect(editor.edges()).toHaveCount(0);
  await editor.selectWorkflow();
  await page.getByTestId("add-input").click();
  await editor.setField("input-0-key", "topic");

  // Drop positions (canvas pixels) keep clear of start and end, which sit mid-height.
  const researcher = await editor.dragKind("agent", 140, 90);
  const outline = await editor.dragKind("agent", 440, 90);
  const evaluator = await editor.dragKind("agent", 740, 90);
  const writer = await editor.dragKind("agent", 440, 640);

  for (const [id, name] of [
    [researcher, "Researcher"],
    [outline, "Outline"],
    [evaluator, "Evaluator"],
    [writer, "Writer"],
  ] as const) {
    await editor.selectNode(id);
    await editor.setField("node-name", name);
    await expect(editor.node(id)).toContainText(name);
  }
  await editor.selectNode(evaluator);
  await editor.setField("branch-0-id", "approved");
  await page.getByTestId("add-branch").click();
  await editor.setField("branch-1-id", "revise");
  await expect(editor.node(evaluator).locator('.react-flow__handle[data-handleid="revise"]')).toBeVisible();

  await editor.connect("start", "next", researcher);
  await editor.connect(researcher, "done", outline);
  await editor.connect(outline, "done", evaluator);
  await editor.connect(evaluator, "approved", writer);
  await editor.connect(writer, "done", "end");
  await editor.connect(evaluator, "revise", outline);
  await expect(editor.edges()).toHaveCount(6);
  await editor.layout();
  return { researcher, outline, evaluator, writer };
}

test("build the article writer by drag and drop, cap the loop, save, reload, break and undo, export/import", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpNewUser(page, "editor");
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);

  const { outline, evaluator, writer } = await buildArticleWriter(page, editor);

  // The revise edge goes back upstream: the editor made it a loop edge with the default cap.
  const loopId = await editor.edgeId(evaluator, outline);
  await expect(page.getByTestId(`loop-label-${loopId}`)).toHaveText("↺ ≤ 3");
  await page.getByTestId(`loop-label-${loopId}`).click();
  await editor.setField("loop-max", "5");
  await expect(page.getByTestId(`loop-label-${loopId}`)).toHaveText("↺ ≤ 5");
  await editor.setField("loop-max", "3");
  await expect(page.getByTestId(`loop-label-${loopId}`)).toHaveText("↺ ≤ 3");

  await editor.tab("issues");
  await expect(page.getByTestId("issues-empty")).toBeVisible();

  await editor.save();
  const before = await editor.snapshot();
  await page.reload();
  await expect(editor.edges()).toHaveCount(6);
  expect(await editor.snapshot()).toEqual(before);
  await expect(editor.saveState()).toHaveText("Saved");

  // Deleting the writer → end edge breaks the graph; undo repairs it.
  const lastEdge = await editor.edgeId(writer, "end");
  await editor.selectEdge(lastEdge);
  await page.keyboard.press("Delete");
  await expect(editor.edges()).toHaveCount(5);
  await editor.tab("issues");
  await expect(page.getByTestId("issue").first()).toBeVisible();
  await expect(page.locator('[data-testid="issue"][data-code="cannot_reach_terminal"]').first()).toBeVisible();
  await expect(editor.node(writer).getByTestId("issue-badge")).toBeVisible();
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("Control+z");
  await expect(editor.edges()).toHaveCount(6);
  await expect(page.getByTestId("issues-empty")).toBeVisible();

  // Export, wreck the graph, import the file: the same graph comes back.
  const download = page.waitForEvent("download");
  await page.getByTestId("export").click();
  const file = await (await download).path();
  const exported = JSON.parse(await fs.readFile(file, "utf8")) as { nodes: unknown[]; edges: unknown[] };
  expect(exported.nodes).toHaveLength(6);
  await editor.selectNode(outline);
  await page.keyboard.press("Delete");
  await expect(editor.nodes()).toHaveCount(5);
  await page.getByTestId("import-file").setInputFiles(file);
  await expect(editor.nodes()).toHaveCount(6);
  expect(await editor.snapshot()).toEqual(before);
  const again = page.waitForEvent("download");
  await page.getByTestId("export").click();
  expect(JSON.parse(await fs.readFile(await (await again).path(), "utf8"))).toEqual(exported);
});

test("a connection the model forbids is refused with the reason", async ({ page }) => {
  await signUpNewUser(page, "editor-refuse");
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.connect("start", "next", "end");
  await expect(page.getByText("These two nodes are already connected by that outcome.")).toBeVisible();
  await expect(editor.edges()).toHaveCount(1);
});

/**
 * Runs against the runtime the config starts (web app, run worker, scripted model server).
 *
 * The scripted answers are keyed to this attempt only: every agent's instructions carry a fresh
 * marker and the rules match on it, so no other spec's requests can reach them (nor advance their
 * sequence), and a retry starts from fresh rules. The answers are instant: what the test reads is each
 * node's recorded state history (data-history, folded from the run's event stream, which replays from
 * seq 0), not what happened to be painted, so a start and finish arriving together still count.
 * On a failure the scripted log and the run's steps are attached.
 */
test("run the article writer from the editor: nodes go running → succeeded, outline shows its iterations", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const modelUrl = process.env.EDITOR_E2E_MODEL_URL ?? `http://127.0.0.1:${SCRIPTED_PORT}`;
  const marker = `e2e-editor-run-${testInfo.retry}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const state: RunDiagnostics = { modelUrl, afterSeq: await lastScriptedSeq(page, modelUrl) };
  diagnostics = state;
  await runArticleWriter(page, modelUrl, marker, state);
});

interface RunDiagnostics {
  modelUrl: string;
  afterSeq: number;
  runId?: string;
}
let diagnostics: RunDiagnostics | undefined;

test.afterEach(async ({ page }, testInfo) => {
  const d = diagnostics;
  diagnostics = undefined;
  if (d && testInfo.status !== testInfo.expectedStatus)
    await attachDiagnostics(page, testInfo, d.modelUrl, d.afterSeq, d.runId);
});

async function lastScriptedSeq(page: Page, modelUrl: string): Promise<number> {
  const res = await page.request.get(`${modelUrl}/_scripted/requests`);
  const { requests } = (await res.json()) as { requests: { seq: number }[] };
  return requests.at(-1)?.seq ?? 0;
}

async function attachDiagnostics(
  page: Page,
  testInfo: TestInfo,
  modelUrl: string,
  afterSeq: number,
  runId: string | undefined,
) {
  const log = (await page.request.get(`${modelUrl}/_scripted/requests`).then(
    (r) => r.json(),
    () => ({ requests: [] }),
  )) as { requests: { seq: number; body?: unknown }[] };
  const calls = log.requests
    .filter((r) => r.seq > afterSeq)
    .map(({ body, ...r }) => ({ ...r, body: JSON.stringify(body).slice(0, 600) }));
  await testInfo.attach("scripted-requests.json", {
    body: JSON.stringify(calls, null, 2),
    contentType: "application/json",
  });
  if (runId) {
    const run = await page.request.get(`/api/runs/${runId}`).then(
      (r) => r.text(),
      (e: Error) => e.message,
    );
    await testInfo.attach("run.json", { body: run, contentType: "application/json" });
  }
}

async function runArticleWriter(page: Page, modelUrl: string, id: string, state: RunDiagnostics) {
  const marker = `[[${id}]]`;
  await signUpNewUser(page, "editor-run");
  const workflowId = await new WorkflowsPage(page).createBlank();
  // This attempt's rules: the evaluator sends the outline back twice, then approves (a structured
  // choose_branch call, rule R5); every other answer of these agents is a short text.
  const fixture = await page.request.post(`${modelUrl}/_scripted/fixtures`, {
    data: {
      mode: "add",
      rules: [
        {
          id: `${id}.evaluator`,
          priority: 101,
          match: { system: ["[[evaluator]]", marker], schema: "choose_branch" },
          then: "repeat",
          sequence: [
            { json: { branch: "revise", reason: "needs examples" } },
            { json: { branch: "revise", reason: "tighten" } },
            { json: { branch: "approved", reason: "good" } },
          ],
        },
        {
          id: `${id}.agents`,
          priority: 100,
          match: { system: marker, hasTools: false, responseFormat: "text" },
          reply: { text: "Notes on the topic: three points and a summary." },
        },
      ],
    },
  });
  expect(fixture.ok(), await fixture.text()).toBe(true);

  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  const { researcher, outline, evaluator, writer } = await buildArticleWriter(page, editor);
  const instructions: [string, string][] = [
    [researcher, `${marker} Research the topic.`],
    [outline, `${marker} Outline an article from the research.`],
    [evaluator, `[[evaluator]] ${marker} Judge the outline: approve it or send it back for revision.`],
    [writer, `${marker} Write the article from the outline.`],
  ];
  for (const [nodeId, text] of instructions) {
    await editor.selectNode(nodeId);
    await editor.setField("agent-instructions", text);
  }
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  await editor.save();

  await editor.tab("run");
  await page.getByTestId("run-input-topic").fill("Durable workflow engines");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-status")).toBeVisible({ timeout: 60_000 });
  // the started run (startRunAction's answer) is the one the panel follows and links to
  state.runId = (await page.getByTestId("run-link").getAttribute("href"))?.match(/^\/runs\/([0-9a-f-]{36})$/)?.[1];
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });

  // Every node went running → succeeded, once per visit: the outline/evaluator loop ran three times
  // (revise, revise, approved); the others once.
  const once = "running succeeded";
  const thrice = [once, once, once].join(" ");
  const expected: [string, string][] = [
    ["start", once],
    [researcher, once],
    [outline, thrice],
    [evaluator, thrice],
    [writer, once],
    ["end", once],
  ];
  for (const [nodeId, history] of expected) {
    const shell = editor.node(nodeId).locator("[data-status]");
    await expect(shell, nodeId).toHaveAttribute("data-status", "succeeded");
    await expect(shell, nodeId).toHaveAttribute("data-history", history);
  }
  await expect(editor.node(outline).locator("[data-iteration]")).toHaveAttribute("data-iteration", "3");
  await expect(editor.node(outline).getByTestId("iteration-badge")).toHaveText("×3");
  await expect(editor.node(researcher).getByTestId("iteration-badge")).toHaveCount(0);

  // The run's dashboard link opens this run, finished, with the outline's third visit on its timeline.
  const runId = state.runId;
  expect(runId, "the panel links to the started run").toBeTruthy();
  await expect(page.getByTestId("run-status")).toContainText(`Run ${runId!.slice(0, 10)}`);
  await page.getByTestId("run-link").click();
  await page.waitForURL(`**/runs/${runId}`);
  const dashboard = new RunPage(page);
  await expect(dashboard.dashboard()).toBeVisible();
  await expect(dashboard.status()).toHaveText("succeeded");
  await expect(dashboard.bar(outline, 3)).toBeVisible();
  await expect(dashboard.bar(outline, 4)).toHaveCount(0);
}

/**
 * Relative luminance (0 black … 1 white) of the background an element shows: its own computed
 * background colour, or the nearest ancestor's when it is transparent (any CSS colour syntax).
 */
async function backgroundLuminance(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((start) => {
      const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
      if (!ctx) throw new Error("no 2d canvas");
      for (let el: Element | null = start; el; el = el.parentElement) {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = getComputedStyle(el).backgroundColor;
        ctx.fillRect(0, 0, 1, 1);
        const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
        if (a < 200) continue;
        const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
      }
      throw new Error("no opaque background up to the root");
    });
}

test("the canvas follows the theme: dark class and a dark background in dark mode, chosen or from the system", async ({
  page,
}) => {
  await signUpNewUser(page, "editor-theme");
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  const canvas = page.locator(".react-flow");
  const expectMode = async (mode: "light" | "dark") => {
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${mode}\\b`));
    await expect(canvas).toHaveClass(new RegExp(`\\b${mode}\\b`));
    await expect(canvas).not.toHaveClass(new RegExp(`\\b${mode === "dark" ? "light" : "dark"}\\b`));
    const luminance = await backgroundLuminance(page, ".react-flow__background");
    if (mode === "dark") expect(luminance, "dark canvas background").toBeLessThan(0.05);
    else expect(luminance, "light canvas background").toBeGreaterThan(0.8);
  };
  await editor.goto(id);
  for (const theme of ["dark", "light"] as const) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await expect(editor.nodes().first()).toBeVisible();
    await expectMode(theme);
  }
  // "system" (the default) follows the OS preference, on load and when it changes.
  await page.evaluate(() => localStorage.setItem("theme", "system"));
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(editor.nodes().first()).toBeVisible();
  await expectMode("dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expectMode("light");
  // The header's toggle (system → light → dark): the page switches at once, and the class that holds
  // transitions off during the switch is gone afterwards.
  const toggle = page.getByRole("button", { name: /theme \(switch to/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-label", /^Light theme/);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-label", /^Dark theme/);
  await expectMode("dark");
  await expect(page.locator("html")).not.toHaveClass(/theme-switching/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
});
