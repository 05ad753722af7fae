import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { WorkflowsPage } from "./pages/workflows-page";

test("a workflow can start from a pattern template", async ({ page }) => {
  await signUpNewUser(page, "template");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Article writer" })).toBeVisible();
  const nodes = Number(await page.getByTestId("node-count").textContent());
  expect(nodes).toBeGreaterThan(2);
  await expect(page.getByRole("link", { name: "Open editor" })).toHaveAttribute("href", /\/edit$/);
});

test("an example request on the start screen designs itself in the editor", async ({ page }) => {
  await signUpNewUser(page, "example");
  await page.goto("/workflows/new");
  await page.getByTestId("describe-example").filter({ hasText: "Triage customer messages" }).click();
  await page.waitForURL(/\/workflows\/[^/]+\/edit/);
  const panel = page.getByTestId("designer-panel");
  await expect(panel.getByTestId("designer-user-message")).toHaveText(
    "Triage customer messages: purchases go to sales, refund requests to the refund agent",
  );
  await expect(panel.getByTestId("designer-proposal")).toBeVisible({ timeout: 60_000 });
});

test("a workflow can be deleted from its page after confirming", async ({ page }) => {
  await signUpNewUser(page, "delete");
  await new WorkflowsPage(page).createBlank();
  const url = page.url();
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: /Delete “Untitled workflow”/ });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await page.waitForURL("**/workflows");
  await expect(page.getByRole("heading", { name: "No workflows yet" })).toBeVisible();
  expect((await page.goto(url))?.status()).toBe(404);
});
