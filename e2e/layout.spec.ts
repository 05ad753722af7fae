import { expect, test, type Page } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/** The page is no wider than the window: nothing forces a sideways scroll of the whole page. */
async function expectNoPageOverflow(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll, `${path} at ${client}px is ${scroll}px wide`).toBeLessThanOrEqual(client);
}

const PAGES = ["/workflows", "/workflows/new", "/runs", "/agents", "/tools", "/knowledge", "/settings"];

test("no page is wider than a desktop or a phone window", async ({ page }) => {
  await signUpNewUser(page, "layout");
  // a table on the settings page (its screen-reader-only header once escaped its scroll box on phones)
  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.createApiToken("layout check");
  // a workflow's page with a schedule, a webhook and a notification URL (long URLs and action rows)
  await page.goto("/workflows");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowPage = new URL(page.url()).pathname;
  await page.getByRole("button", { name: "Add schedule" }).click();
  await page.getByRole("dialog", { name: "Add schedule" }).getByRole("button", { name: "Add schedule" }).click();
  await page.getByRole("button", { name: "Add webhook" }).click();
  await page
    .getByRole("dialog", { name: "Add webhook" })
    .getByLabel("Name")
    .fill("A sender with a rather long name for a phone");
  await page.getByRole("dialog", { name: "Add webhook" }).getByRole("button", { name: "Add webhook" }).click();
  await page.getByRole("dialog", { name: "Add webhook" }).getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add URL" }).click();
  await page
    .getByRole("dialog", { name: "Add notification URL" })
    .getByLabel("URL")
    .fill(`https://hooks.example.com/services/${"x".repeat(60)}/notify`);
  await page.getByRole("dialog", { name: "Add notification URL" }).getByRole("button", { name: "Add URL" }).click();
  await page.getByRole("dialog", { name: "Add notification URL" }).getByRole("button", { name: "Done" }).click();
  const pages = [...PAGES, workflowPage];
  // the tools page lists the built-ins, whose longest description once widened the page
  for (const path of pages) await expectNoPageOverflow(page, path);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of pages) await expectNoPageOverflow(page, path);
  // the navigation scrolls inside the bar, and every section stays reachable
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeAttached();
});
