import { expect, test } from "@playwright/test";
import { AgentsPage } from "./pages/agents-page";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * The agent library end to end: create a saved agent (instructions, scripted model, a tool), edit,
 * duplicate and delete; drag it from the editor's palette into a workflow; run it against the real
 * runtime (worker + scripted model on 4110, fixture lib/llm/scripted/fixtures/agents-library.json):
 * the agent calls its word_count tool and the run succeeds with the tool's answer in the output.
 */
test.use({ viewport: { width: 1600, height: 1000 } });

test("create an agent in the library, drag it into a workflow, run it", async ({ page }) => {
  test.setTimeout(240_000);
  await signUpNewUser(page, "agents");
  const library = new AgentsPage(page);
  await library.goto();
  await expect(page.getByRole("heading", { name: "No saved agents" })).toBeVisible();

  // Validation errors are shown on the field.
  await page.getByTestId("agent-new").click();
  await page.getByTestId("agent-save").click();
  await expect(page.getByTestId("agent-form").getByText("Enter a name")).toBeVisible();
  await page.keyboard.press("Escape");

  await library.create({
    name: "Word counter",
    description: "Counts words",
    instructions: "[[library-counter]] Count the words of the task with your tool.",
    model: "scripted",
    tools: ["word_count"],
  });
  const card = library.card("Word counter");
  await expect(card).toContainText("Scripted demo model");
  await expect(card).toContainText("word_count");

  // Edit: the description changes and survives a reload.
  await card.getByRole("button", { name: "Edit Word counter" }).click();
  await page.getByTestId("agent-form").getByTestId("agent-description").fill("Counts the words of a text");
  await page.getByTestId("agent-save").click();
  await expect(page.getByTestId("agent-form")).toBeHidden();
  await page.reload();
  await expect(library.card("Word counter")).toContainText("Counts the words of a text");

  // Duplicate, then delete the copy.
  await library.card("Word counter").getByRole("button", { name: "Duplicate Word counter" }).click();
  await expect(library.card("Word counter (copy)")).toHaveCount(1);
  await library.card("Word counter (copy)").getByRole("button", { name: "Delete Word counter (copy)" }).click();
  await page.getByTestId("agent-delete-confirm").click();
  await expect(library.card("Word counter (copy)")).toHaveCount(0);
  await expect(library.cards()).toHaveCount(1);

  // The editor's palette offers the saved agent; drag it between start and end.
  await page.goto("/workflows");
  const id = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.selectEdge(await editor.edgeId("start", "end"));
  await page.keyboard.press("Delete");
  await expect(editor.edges()).toHaveCount(0);
  const before = new Set(await editor.nodes().evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? "")));
  const saved = page.getByTestId("palette-saved-agent").filter({ hasText: "Word counter" });
  await expect(saved).toHaveCount(1);
  // Below start and end (a blank workflow puts them side by side mid-canvas), so no handle is covered.
  const box = (await editor.canvas().boundingBox())!;
  await saved.dragTo(editor.canvas(), { targetPosition: { x: box.width / 2 - 100, y: box.height - 220 } });
  await expect(editor.nodes()).toHaveCount(before.size + 1);
  const agent = (await editor.nodes().evaluateAll((els) => els.map((e) => e.getAttribute("data-id") ?? ""))).find(
    (n) => !before.has(n),
  )!;
  await expect(editor.node(agent)).toContainText("Word counter");

  // The node's agent is the saved one (its instructions and tools came along).
  await editor.selectNode(agent);
  await expect(page.getByText("Saved agent", { exact: true })).toBeVisible();
  await expect(page.getByTestId("agent-instructions")).toHaveValue(/\[\[library-counter\]\]/);
  await expect(page.getByTestId("agent-tools")).toHaveValue("word_count");
  await editor.setField("node-task", "weft weaves durable agent workflows");

  await editor.connect("start", "next", agent);
  await editor.connect(agent, "done", "end");
  await expect(editor.edges()).toHaveCount(2);
  await editor.tab("issues");
  await expect(page.getByTestId("issues-empty")).toBeVisible();
  await editor.save();

  await editor.tab("run");
  await page.getByTestId("run-start").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 90_000 });
  await expect(editor.node(agent).locator("[data-status]")).toHaveAttribute("data-status", "succeeded");

  // The run's record: the saved agent called its tool and answered with the tool's result.
  const href = await page.getByTestId("run-link").getAttribute("href");
  const runId = href!.split("/").pop()!;
  const run = await page.request.get(`/api/runs/${runId}`);
  expect(run.ok()).toBe(true);
  const body = JSON.stringify(await run.json());
  expect(body).toContain("LIBRARY AGENT COUNT");
  expect(body).toMatch(/\\?"words\\?":\s*\d+/);
});

test("create a tool in the dialog (fail → fix in the sandbox), approve its exact code, revoke it; agents can pick it", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpNewUser(page, "tools");
  await page.goto("/tools");
  await expect(page.getByRole("heading", { level: 1, name: "Tools" })).toBeVisible();
  await expect(page.locator('[data-testid="tool-row"][data-kind="builtin"][data-tool="word_count"]')).toBeVisible();

  await page.getByTestId("create-tool").click();
  await page
    .getByTestId("create-tool-request")
    .fill("I need a pct-change tool: the percentage change from an old value to a new value");
  await page.getByTestId("create-tool-start").click();
  // the scripted model writes here, as in the offline demo: the dialog says so
  await expect(page.getByTestId("create-tool-offline")).toContainText("Offline demo model");
  const ready = page.getByTestId("create-tool-ready");
  await expect(ready).toBeVisible({ timeout: 120_000 });
  // Each round was shown live; the last one passes every test. (A Playwright retry reuses the fixed draft in round 1.)
  await expect(page.getByTestId("create-tool-round").last()).toContainText("2/2 tests pass");
  await expect(page.getByTestId("create-tool-code")).toContainText("function run");
  await expect(ready.locator('[data-testid="tool-test"][data-passed="true"]')).toHaveCount(2);
  await expect(ready).toContainText("awaiting your approval");
  await page.getByTestId("create-tool-approve").click();
  await expect(page.getByTestId("create-tool-dialog")).toBeHidden();

  const row = page.locator('[data-testid="tool-row"][data-tool="pct_change"]');
  await expect(row).toContainText("v1 runs");
  await row.getByRole("button", { name: /pct_change/ }).click();
  const version = row.getByTestId("tool-version");
  await expect(version).toHaveAttribute("data-approved", "true");
  await expect(version.getByTestId("tool-hash")).toContainText("sha256");
  await expect(version.locator('[data-testid="tool-test"][data-passed="true"]')).toHaveCount(2);

  // The agent form offers it while approved.
  await page.goto("/agents");
  await page.getByTestId("agent-new").click();
  await expect(page.getByTestId("agent-tools").locator('input[value="pct_change"]')).toBeVisible();
  await page.keyboard.press("Escape");

  // Revoking stops it: it is no longer runnable (nor offered to agents).
  await page.goto("/tools");
  await row.getByRole("button", { name: /pct_change/ }).click();
  await row.getByTestId("tool-revoke").click();
  await expect(row).toContainText("not approved");
  await page.goto("/agents");
  await page.getByTestId("agent-new").click();
  await expect(page.getByTestId("agent-tools").locator('input[value="math"]')).toBeVisible();
  await expect(page.getByTestId("agent-tools").locator('input[value="pct_change"]')).toHaveCount(0);
});
