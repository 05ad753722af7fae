import { expect, test, type Page } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { EditorPage } from "./pages/editor-page";
import { RunPage } from "./pages/run-page";
import { WorkflowsPage } from "./pages/workflows-page";

/**
 * A team in a real browser: the owner makes a shared workspace, a workflow and a vault secret there,
 * and invites a second user as runner by link. The runner joins, starts a run and watches it end,
 * but sees the workflow read-only, has every save refused, and never sees a secret value. The owner
 * removes the runner: the runner's very next request reaches nothing of the workspace.
 */
const SECRET = "e2e-vault-secret-7f3a";

async function api(page: Page, path: string, init: { method?: string; body?: unknown } = {}) {
  return page.evaluate(
    async ([p, m, b]) => {
      const res = await fetch(p, {
        method: m,
        headers: { "content-type": "application/json" },
        ...(b === undefined ? {} : { body: JSON.stringify(b) }),
      });
      return { status: res.status, text: await res.text() };
    },
    [path, init.method ?? "GET", init.body] as const,
  );
}

test("an owner invites a runner, who runs but cannot edit or see secrets, then loses access at once", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUpNewUser(page, "ws-owner");

  // a shared workspace, chosen in the switcher
  await page.goto("/settings/workspace");
  const create = page.getByTestId("workspace-create");
  await create.getByLabel("Name").fill("Team Orion");
  await create.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Team Orion" })).toBeVisible();
  await expect(page.getByTestId("workspace-switcher").locator("option:checked")).toHaveText(/Team Orion/);

  // a workflow with a saved version, and a vault secret, in it
  const workflowId = await new WorkflowsPage(page).createBlank();
  const editor = new EditorPage(page);
  await editor.goto(workflowId);
  await page.getByTestId("save-version").click();
  await expect(page.getByText(/Saved version 1/)).toBeVisible();
  await page.goto("/settings");
  await page.getByTestId("credential-add").click();
  await page.getByTestId("credential-name").fill("orion-key");
  await page.getByTestId("credential-value").fill(SECRET);
  await page.getByTestId("credential-save").click();
  await expect(page.getByTestId("credential-row")).toHaveCount(1);

  // an invitation link for a runner
  await page.goto("/settings/workspace");
  const invite = page.getByTestId("invite-form");
  await invite.getByLabel("Role").selectOption("runner");
  await page.getByTestId("invite-create").click();
  const link = (await page.getByTestId("invite-link").textContent())!.trim();
  expect(link).toMatch(/\/invite\/[\w-]{40,}$/);

  // the runner joins
  const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const runner = await other.newPage();
  await signUpNewUser(runner, "ws-runner");
  await runner.goto(link);
  await expect(runner.getByRole("heading", { name: "Join Team Orion" })).toBeVisible();
  await runner.getByTestId("invitation-accept").click();
  await runner.waitForURL("**/workflows");
  await expect(runner.getByTestId("workspace-switcher").locator("option:checked")).toHaveText(/Team Orion · runner/);
  await expect(runner.getByRole("link", { name: "Untitled workflow" }).first()).toBeVisible();

  // read-only editor; a save by hand is refused by the server, and nothing changed
  await runner.goto(`/workflows/${workflowId}/edit`);
  await expect(runner.getByTestId("read-only")).toHaveText("Read only: your role here is runner");
  await expect(runner.getByTestId("save")).toHaveCount(0);
  await expect(runner.getByTestId("palette-agent")).toHaveCount(0);
  const before = await api(page, `/api/workflows/${workflowId}`);
  const refused = await api(runner, `/api/workflows/${workflowId}/simplify`, { method: "POST", body: {} });
  expect(refused.status).toBe(403);
  expect(JSON.parse(refused.text)).toMatchObject({ error: { code: "forbidden", details: { role: "runner" } } });
  expect((await api(page, `/api/workflows/${workflowId}`)).text).toBe(before.text);

  // the runner starts a run and watches it end
  const started = await api(runner, `/api/workflows/${workflowId}/runs`, { method: "POST", body: { inputs: {} } });
  expect(started.status, started.text).toBe(201);
  const runId = (JSON.parse(started.text) as { run: { id: string } }).run.id;
  const dashboard = new RunPage(runner);
  await dashboard.goto(runId);
  await expect(dashboard.status()).toHaveText("succeeded", { timeout: 60_000 });

  // no secret anywhere the runner can reach, and no vault section at all
  await runner.goto("/settings");
  await expect(runner.getByTestId("settings-role-note")).toContainText("(runner)");
  await expect(runner.getByTestId("credential-row")).toHaveCount(0);
  for (const path of ["/settings", `/runs/${runId}`, `/workflows/${workflowId}`, `/workflows/${workflowId}/edit`]) {
    const html = await runner.evaluate(async (p) => (await fetch(p)).text(), path);
    expect(html, path).not.toContain(SECRET);
  }

  // the audit log names who did what
  await page.goto("/settings/workspace");
  await expect(page.locator("[data-testid=audit-row][data-action='run.started']")).toHaveCount(1);
  await expect(page.locator("[data-testid=audit-row][data-action='member.joined']")).toHaveCount(1);

  // the owner removes the runner: their next request reaches nothing of the workspace
  const row = page.getByTestId("member-row").filter({ hasText: "E2E ws-runner" });
  await row.getByTestId("member-remove").click();
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  expect((await api(runner, `/api/workflows/${workflowId}`)).status).toBe(404);
  expect((await api(runner, `/api/runs/${runId}`)).status).toBe(404);
  await runner.goto("/workflows");
  await expect(runner.getByTestId("workspace-switcher").locator("option:checked")).not.toHaveText(/Team Orion/);
  await expect(runner.getByRole("link", { name: "Untitled workflow" })).toHaveCount(0);
  await other.close();
});
