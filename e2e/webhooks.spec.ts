import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";

/** Runs a command the page shows, as a user would paste it into a shell: the HTTP status and body. */
function curl(command: string): { status: number; body: unknown } {
  const out = spawnSync("sh", ["-c", `${command} --silent --show-error --write-out '\\n%{http_code}'`], {
    encoding: "utf8",
  });
  const lines = out.stdout.trimEnd().split("\n");
  const status = Number(lines.pop());
  return { status, body: JSON.parse(lines.join("\n") || "null") };
}

/**
 * A webhook's whole life on a workflow's page: added (its secret URL shown once, with a call to try),
 * refused while nothing is saved, then a real run through the worker started by the page's own curl
 * command and shown as the webhook's on the runs page and the run's dashboard; a new URL retires the
 * old one; paused, it refuses; deleted, it is gone.
 */
test("a webhook URL from the workflow page starts runs, recorded as the webhook's; new URL, pause and delete work", async ({
  page,
}) => {
  await signUpNewUser(page, "webhook");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowUrl = page.url();
  await expect(page.getByText("No webhooks.")).toBeVisible();

  await page.getByRole("button", { name: "Add webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "Add webhook" });
  await dialog.getByRole("button", { name: "Add webhook" }).click();
  await expect(dialog.getByText("Enter a name")).toBeVisible();
  await dialog.getByLabel("Name").fill("Issue tracker");
  await dialog.getByRole("button", { name: "Add webhook" }).click();
  const url = await dialog.getByTestId("new-webhook-url").inputValue();
  expect(url).toMatch(/^http:\/\/[^/]+\/api\/hooks\/whk_[A-Za-z0-9_-]{32}$/);
  const command = (await dialog.getByTestId("webhook-curl").textContent())!;
  expect(command).toContain(`'${url}'`);
  expect(command).toContain(`'{"topic":"What the article is about"}'`);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("webhook-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`/api/hooks/whk_••••${url.slice(-4)}`);
  await expect(row).toContainText("Never called");
  await page.reload();
  expect(await page.content()).not.toContain(url.split("/").at(-1)!);

  // the workflows list marks it as started from outside
  await page.goto("/workflows");
  await expect(page.getByRole("row", { name: /Article writer/ }).getByText("Webhook", { exact: true })).toBeVisible();
  await page.goto(workflowUrl);

  // the template's workflow has no saved version yet: the call is refused and the page says why
  await expect(page.getByRole("note").filter({ hasText: "No saved version yet" })).toBeVisible();
  const early = curl(command);
  expect(early.status).toBe(409);
  await page.reload();
  await expect(row.getByTestId("webhook-last")).toContainText("no saved version");

  await page.goto(`${workflowUrl}/edit`);
  await page.getByTestId("save-version").click();
  await expect(page.getByText(/^Saved version 1/)).toBeVisible();

  // ?wait= answers when the run ended, with its outputs (a chat command's reply, say)
  const started = curl(command.replace(`'${url}'`, `'${url}?wait=45'`));
  expect(started.status).toBe(200);
  expect(started.body).toMatchObject({ status: "succeeded", outputs: { article: expect.any(String) } });
  const { runId } = started.body as { runId: string };
  const queued = curl(command);
  expect(queued.status).toBe(202);
  expect(queued.body).toMatchObject({ status: "queued", dispatched: true });

  // the workflow's page lists its recent runs; "All runs" opens /runs filtered to it, and the filter lives in the address
  await page.goto(workflowUrl);
  await expect(page.getByTestId("recent-runs").getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("recent-runs")).toContainText("Webhook · Issue tracker");
  await page.getByRole("link", { name: "All runs" }).click();
  await page.waitForURL(`**/runs?workflow=${workflowUrl.split("/").at(-1)}`);
  await expect(page.getByTestId("filter-workflow")).toHaveValue(workflowUrl.split("/").at(-1)!);
  await page.getByTestId("filter-trigger").selectOption({ label: "Webhook" });
  await expect(page).toHaveURL(/[?&]trigger=webhook/);
  await page.reload();
  await expect(page.getByTestId("filter-trigger")).toHaveValue("webhook");
  const runRow = page.getByTestId(`run-row-${runId}`);
  await expect(runRow.getByTestId("run-trigger")).toHaveText("Webhook · Issue tracker");
  await expect(page.locator("[data-testid^='run-row-']")).toHaveCount(2);
  await page.getByTestId("filter-trigger").selectOption({ label: "Schedule" });
  await expect(page.getByTestId("runs-empty")).toBeVisible();
  await page.getByTestId("filter-trigger").selectOption({ label: "Webhook" });
  await runRow.getByRole("link", { name: "succeeded" }).click();
  await page.waitForURL(`**/runs/${runId}`);
  await expect(page.getByTestId("run-dashboard").getByTestId("run-trigger")).toHaveText("Webhook · Issue tracker");

  await page.goto(workflowUrl);
  await expect(row.getByTestId("webhook-last")).toContainText("the run");
  // the call log: the refusal before the first save, then the waited-for and the queued call
  await row.getByTestId("webhook-calls").locator("summary").click();
  await expect(row.getByTestId("webhook-call")).toHaveCount(3);
  await expect(row.getByTestId("webhook-call").nth(0)).toContainText("202");
  await expect(row.getByTestId("webhook-call").nth(1)).toContainText("200");
  await expect(row.getByTestId("webhook-call").nth(2)).toContainText("409");
  await row.getByRole("button", { name: "New URL" }).click();
  await page
    .getByRole("dialog", { name: /New URL for/ })
    .getByRole("button", { name: "Replace the URL" })
    .click();
  const fresh = page.getByRole("dialog", { name: "New webhook URL" });
  const newUrl = await fresh.getByTestId("new-webhook-url").inputValue();
  expect(newUrl).not.toBe(url);
  const newCommand = (await fresh.getByTestId("webhook-curl").textContent())!;
  await fresh.getByRole("button", { name: "Done" }).click();
  expect(curl(command).status).toBe(404);

  await row.getByRole("button", { name: "Edit" }).click();
  const editing = page.getByRole("dialog", { name: "Edit “Issue tracker”" });
  await expect(editing.getByLabel("Name")).toHaveValue("Issue tracker");
  await editing.getByLabel("The request body").selectOption("payload");
  await editing.getByLabel("Input field").selectOption("topic");
  await editing.getByRole("button", { name: "Save webhook" }).click();
  await expect(editing).toBeHidden();
  await expect(row).toContainText("Whole body → topic");
  await expect(row).toContainText(`/api/hooks/whk_••••${newUrl.slice(-4)}`);

  await row.getByRole("button", { name: "Pause" }).click();
  await expect(row.getByText("Paused", { exact: true })).toBeVisible();
  const paused = curl(newCommand);
  expect(paused.status).toBe(409);
  expect(paused.body).toMatchObject({ error: { message: expect.stringContaining("paused") } });

  await row.getByRole("button", { name: "Delete webhook Issue tracker" }).click();
  await expect(page.getByText("No webhooks.")).toBeVisible();
  expect(curl(newCommand).status).toBe(404);
});
