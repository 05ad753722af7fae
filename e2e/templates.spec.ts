import { expect, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";

test("a workflow can start from a pattern template", async ({ page }) => {
  await signUpNewUser(page, "template");
  await page.getByRole("list", { name: "Templates" }).getByRole("button", { name: /Article writer/ }).click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Article writer" })).toBeVisible();
  const nodes = Number(await page.getByTestId("node-count").textContent());
  expect(nodes).toBeGreaterThan(2);
  await expect(page.getByRole("link", { name: "Open editor" })).toHaveAttribute("href", /\/edit$/);
});
