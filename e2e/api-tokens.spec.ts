import { execFileSync } from "node:child_process";
import { expect, request as playwrightRequest, test } from "@playwright/test";
import { signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/**
 * A script's whole journey: a token made in Settings (shown once), the REST API with it and nothing
 * else (no cookie), a real run through the worker, then the token revoked and refused.
 */
test("an API token from Settings lists workflows, starts a run and reads it; revoked, it is refused", async ({
  page,
  baseURL,
}) => {
  await signUpNewUser(page, "api-token");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowId = new URL(page.url()).pathname.split("/").at(-1)!;

  const settings = new SettingsPage(page);
  await settings.goto();
  await expect(page.getByRole("heading", { name: "No API tokens" })).toBeVisible();
  const token = await settings.createApiToken("e2e script");
  expect(token).toMatch(/^weft_[A-Za-z0-9_-]{43}$/);
  await expect(settings.tokenRow("e2e script")).toContainText(`weft_••••${token.slice(-4)}`);
  await expect(settings.tokenRow("e2e script")).toContainText("never");
  await page.reload();
  expect(await page.content()).not.toContain(token);

  // a context of its own: no session cookie, only the bearer token
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const anonymous = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await anonymous.get("/api/workflows")).status()).toBe(401);

    const listed = await api.get("/api/workflows");
    expect(listed.status()).toBe(200);
    const { workflows } = (await listed.json()) as {
      workflows: { id: string; name: string; inputs: { key: string }[] }[];
    };
    expect(workflows).toEqual([
      expect.objectContaining({
        id: workflowId,
        name: "Article writer",
        inputs: [expect.objectContaining({ key: "topic", type: "string" })],
      }),
    ]);
    expect((await api.get(`/api/workflows/${workflowId}`)).status()).toBe(200);

    const refused = await api.post(`/api/workflows/${workflowId}/runs`, { data: { inputs: {} } });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "The inputs do not match the workflow's input fields.",
    );

    // the workflow page's "Run from a script" command, run as a user would paste it into a shell
    await page.goto(`/workflows/${workflowId}`);
    const snippet = page.getByTestId("run-from-script");
    await expect(snippet).toContainText(`'${baseURL}/api/workflows/${workflowId}/runs'`);
    const command = (await snippet.textContent())!;
    const answer = execFileSync("sh", ["-c", `${command} --silent --show-error --fail-with-body`], {
      encoding: "utf8",
      env: { ...process.env, WEFT_TOKEN: token },
    });
    const { run } = JSON.parse(answer) as { run: { id: string; inputs: unknown } };
    expect(run.inputs).toEqual({ topic: "What the article is about" });
    const runId = run.id;
    await expect
      .poll(
        async () => ((await (await api.get(`/api/runs/${runId}`)).json()) as { run: { status: string } }).run.status,
        { timeout: 30_000 },
      )
      .toBe("succeeded");

    await settings.goto();
    await expect(settings.tokenRow("e2e script")).not.toContainText("never");
    await settings.revokeApiToken("e2e script");
    expect((await api.get(`/api/runs/${runId}`)).status()).toBe(401);
    expect(
      (await api.post(`/api/workflows/${workflowId}/runs`, { data: { inputs: { topic: "owls" } } })).status(),
    ).toBe(401);
  } finally {
    await api.dispose();
    await anonymous.dispose();
  }
});
