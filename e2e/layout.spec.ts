import { expect, test, type Page } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/** The page is no wider than the window: nothing forces a sideways scroll of the whole page. */
async function expectNoPageOverflow(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
  const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scroll, `${path} at ${client}px is ${scroll}px wide`).toBeLessThanOrEqual(client);
}

const PAGES = ["/workflows", "/workflows/new", "/runs", "/agents", "/tools", "/knowledge", "/settings"];

test("no page is wider than a desktop or a phone window", async ({ page }) => {
  await signUpNewUser(page, "layout");
  // a table on the settings page (its screen-reader-only header once escaped its scroll box on phones)
  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.createApiToken("layout check");
  // the tools page lists the built-ins, whose longest description once widened the page
  for (const path of PAGES) await expectNoPageOverflow(page, path);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of PAGES) await expectNoPageOverflow(page, path);
  // the navigation scrolls inside the bar, and every section stays reachable
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeAttached();
});
