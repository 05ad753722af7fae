import fs from "node:fs/promises";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
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

  for (const [id, name] of [[researcher, "Researcher"], [outline, "Outline"], [evaluator, "Evaluator"], [writer, "Writer"]] as const) {
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

test("build the article writer by drag and drop, cap the loop, save, reload, break and undo, export/import", async ({ page }) => {
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
 * sequence), and a retry starts from fresh rules. Agents answer after a delay so each is visibly
 * running: with instant answers a step's step_started and step_finished reach the page together
 * (replayed when the stream connects late, or in one batch) and React paints only the last state —
 * the "went pending → succeeded" failure. Still opt-in: a dev-server run (09:5x) reached "run
 * succeeded" but saw the first agent only as pending → succeeded (stream connected after it ended);
 * the 5 s first answer below is meant for that and is not yet verified in the full suite.
 * On a failure the scripted log and the run's steps are attached.
 */
test("run the article writer from the editor: nodes go running → succeeded, outline shows its iterations", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  test.skip(!process.env.EDITOR_E2E_MODEL_URL && !process.env.EDITOR_E2E_RUN, "opt-in until verified inside the full suite: EDITOR_E2E_RUN=1 (or -c bench/editor/playwright.config.ts)");
  const modelUrl = process.env.EDITOR_E2E_MODEL_URL ?? `http://127.0.0.1:${SCRIPTED_PORT}`;
  const marker = `e2e-editor-run-${testInfo.retry}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const state: RunDiagnostics = { modelUrl, afterSeq: await lastScriptedSeq(page, modelUrl) };
  diagnostics = state;
  page.on("response", (res) => {
    if (res.request().method() === "POST" && /\/api\/workflows\/[^/]+\/runs$/.test(new URL(res.url()).pathname)) {
      res.json().then((b: { run?: { id?: string } }) => { state.runId = b.run?.id; }, () => {});
    }
  });
  await runArticleWriter(page, modelUrl, marker);
});

interface RunDiagnostics { modelUrl: string; afterSeq: number; runId?: string }
let diagnostics: RunDiagnostics | undefined;

test.afterEach(async ({ page }, testInfo) => {
  const d = diagnostics;
  diagnostics = undefined;
  if (d && testInfo.status !== testInfo.expectedStatus) await attachDiagnostics(page, testInfo, d.modelUrl, d.afterSeq, d.runId);
});

async function lastScriptedSeq(page: Page, modelUrl: string): Promise<number> {
  const res = await page.request.get(`${modelUrl}/_scripted/requests`);
  const { requests } = (await res.json()) as { requests: { seq: number }[] };
  return requests.at(-1)?.seq ?? 0;
}

async function attachDiagnostics(page: Page, testInfo: TestInfo, modelUrl: string, afterSeq: number, runId: string | undefined) {
  const log = await page.request.get(`${modelUrl}/_scripted/requests`).then((r) => r.json(), () => ({ requests: [] })) as { requests: { seq: number; body?: unknown }[] };
  const calls = log.requests.filter((r) => r.seq > afterSeq).map(({ body, ...r }) => ({ ...r, body: JSON.stringify(body).slice(0, 600) }));
  await testInfo.attach("scripted-requests.json", { body: JSON.stringify(calls, null, 2), contentType: "application/json" });
  if (runId) {
    const run = await page.request.get(`/api/runs/${runId}`).then((r) => r.text(), (e: Error) => e.message);
    await testInfo.attach("run.json", { body: run, contentType: "application/json" });
  }
}

async function runArticleWriter(page: Page, modelUrl: string, id: string) {
  const marker = `[[${id}]]`;
  await signUpNewUser(page, "editor-run");
  const workflowId = await new WorkflowsPage(page).createBlank();
  // This attempt's rules: the evaluator sends the outline back twice, then approves (a structured
  // choose_branch call, rule R5); every other answer of these agents is a short text after 1.5 s.
  const fixture = await page.request.post(`${modelUrl}/_scripted/fixtures`, { data: { mode: "add", rules: [
    { id: `${id}.evaluator`, priority: 101, match: { system: ["[[evaluator]]", marker], schema: "choose_branch" }, then: "repeat",
      sequence: [{ json: { branch: "revise", reason: "needs examples" } }, { json: { branch: "revise", reason: "tighten" } }, { json: { branch: "approved", reason: "good" } }] },
    // The first agent answers after 5 s: the page's event stream may connect after the run started, and
    // events from before it connects are replayed together (painted once, as their last state).
    { id: `${id}.first`, priority: 100, match: { system: [marker, "Research the topic"], hasTools: false, responseFormat: "text" },
      reply: { text: "Research notes: three sources and their main points.", delayMs: 5_000 } },
    { id: `${id}.agents`, priority: 99, match: { system: marker, hasTools: false, responseFormat: "text" },
      reply: { text: "Notes on the topic: three points and a summary.", delayMs: 1_500 } },
  ] } });
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
  await editor.recordStatuses();
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-status")).toBeVisible({ timeout: 60_000 });
  await expect(editor.node(outline).locator("[data-status]")).toHaveAttribute("data-status", /running|succeeded/, { timeout: 60_000 });
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });
  const history = await editor.statusHistory();
  for (const nodeId of ["start", researcher, outline, evaluator, writer, "end"]) {
    await expect(editor.node(nodeId).locator("[data-status]")).toHaveAttribute("data-status", "succeeded");
    const seen = history[nodeId] ?? [];
    // start/end do no work (no model call), so only agents are running long enough to be painted.
    if (nodeId === "start" || nodeId === "end") continue;
    expect(seen.indexOf("running"), `${nodeId} went ${seen.join(" → ")}`).toBeGreaterThanOrEqual(0);
    expect(seen.lastIndexOf("succeeded")).toBeGreaterThan(seen.indexOf("running"));
  }
  const iteration = Number(await editor.node(outline).locator("[data-iteration]").getAttribute("data-iteration"));
  expect(iteration).toBe(3);
  await expect(editor.node(outline).getByTestId("iteration-badge")).toHaveText(`×${iteration}`);
  await expect(page.getByTestId("run-link")).toHaveAttribute("href", /\/runs\//);
}

/** README screenshots of the editor (opt-in: WEFT_SCREENSHOTS=1; writes docs/screenshots/editor-*.png). */
test("screenshots: the editor with the article-writer template, light and dark", async ({ page }) => {
  test.skip(!process.env.WEFT_SCREENSHOTS, "set WEFT_SCREENSHOTS=1 to refresh docs/screenshots");
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 860 });
  await signUpNewUser(page, "editor-screens");
  await page.getByRole("button", { name: /Article writer/ }).first().click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const editor = new EditorPage(page);
  await editor.goto(new URL(page.url()).pathname.split("/").pop() ?? "");
  await editor.layout();
  await editor.save();
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(new RegExp(theme));
    await expect(editor.nodes().first()).toBeVisible();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `docs/screenshots/editor-${theme}.png` });
  }
});
