import http from "node:http";
import { type AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { AppShell, newAccount, SignInPage, signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";
import { WorkflowsPage } from "./pages/workflows-page";

const KEY = "sk-e2e-canary-5c1d9e0f4b7a1234";

/** A real OpenAI-compatible /models endpoint that accepts only KEY. */
async function fakeModelsServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const ok = req.url === "/v1/models" && req.headers.authorization === `Bearer ${KEY}`;
    res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
    res.end(
      JSON.stringify(ok ? { object: "list", data: [{ id: "model-a" }, { id: "model-b" }] } : { error: "bad key" }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise((r) => server.close(() => r())) };
}

test("sign up → workflows → new workflow → settings → provider → sign out → sign in", async ({ page }) => {
  const account = await signUpNewUser(page, "journey");
  const workflows = new WorkflowsPage(page);
  await expect(workflows.emptyState()).toBeVisible();
  await expect(page.getByRole("button", { name: /Blank workflow/ })).toBeVisible();

  const id = await workflows.createBlank();
  await workflows.expectOverview("Untitled workflow");

  const shell = new AppShell(page);
  await shell.nav("Settings");
  const settings = new SettingsPage(page);
  await expect(settings.demoNotice()).toBeVisible();

  const models = await fakeModelsServer();
  try {
    await settings.addProvider({ name: "Local test", baseUrl: models.baseUrl, defaultModel: "model-a", apiKey: KEY });
    await expect(settings.row("Local test").getByTestId("provider-key")).toHaveText(`••••${KEY.slice(-4)}`);
    expect(await page.content()).not.toContain(KEY);
    await expect(settings.demoNotice()).toBeHidden();
    await settings.testConnection("Local test");
    await expect(page.getByText("Local test: Connected — 2 models available.")).toBeVisible();
  } finally {
    await models.close();
  }

  await shell.signOut();
  await page.goto("/workflows");
  await page.waitForURL("**/sign-in**");

  const signIn = new SignInPage(page);
  await signIn.goto();
  await signIn.signIn(account.email, "wrong password!!");
  await expect(signIn.alert()).toHaveText("Incorrect email or password.");
  await signIn.signIn(account.email, account.password);
  await page.waitForURL("**/workflows");
  await expect(workflows.rows().filter({ hasText: "Untitled workflow" })).toHaveCount(1);
  await page.goto(`/workflows/${id}`);
  await workflows.expectOverview("Untitled workflow");
});

test("finding 11: sign-up refuses a short password inline and answers a taken email exactly like a new one", async ({
  page,
}) => {
  const account = await signUpNewUser(page, "dup");
  await new AppShell(page).signOut();
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Someone");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Use at least 10 characters")).toBeVisible();
  await page.getByLabel("Password").fill("long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/sign-in?signed-up=1");
  const taken = await page.getByRole("status").textContent();
  await expect(page.getByText(/already exists/)).toHaveCount(0);
  // a new email gets the same page and the same words
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill("Someone");
  await page.getByLabel("Email").fill(newAccount("fresh").email);
  await page.getByLabel("Password").fill("long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/sign-in?signed-up=1");
  expect(await page.getByRole("status").textContent()).toBe(taken);
  // the taken account still has its own password
  await new SignInPage(page).signIn(account.email, "long enough password");
  await expect(new SignInPage(page).alert()).toHaveText("Incorrect email or password.");
});

test("a refused provider form keeps what was typed", async ({ page }) => {
  await signUpNewUser(page, "keep");
  const settings = new SettingsPage(page);
  await settings.goto();
  await page.getByRole("button", { name: "Add provider" }).click();
  const dialog = page.getByRole("dialog", { name: "Add provider" });
  await dialog.getByLabel("Name").fill("Local vLLM");
  await dialog.getByLabel("Base URL").fill("not a url");
  await dialog.getByLabel("Default model").fill("qwen2.5-7b");
  await dialog.getByLabel("API key").fill("sk-typed-once");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await expect(dialog.getByLabel("Base URL")).toHaveAttribute("aria-invalid", "true");
  // React resets a form action's uncontrolled fields; ActionForm must not let it
  await expect(dialog.getByLabel("Name")).toHaveValue("Local vLLM");
  await expect(dialog.getByLabel("Default model")).toHaveValue("qwen2.5-7b");
  await expect(dialog.getByLabel("API key")).toHaveValue("sk-typed-once");
  await dialog.getByLabel("Base URL").fill("http://127.0.0.1:8000/v1");
  await dialog.getByRole("button", { name: "Add provider" }).click();
  await expect(dialog).toBeHidden();
  await expect(settings.row("Local vLLM")).toContainText("qwen2.5-7b");
});
