import { expect, test, type Page } from "@playwright/test";
import { corpus } from "@/lib/designer/fixtures/corpus";
import { SCRIPTED_PORT } from "../playwright.config";
import { signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/**
 * The designer with providers that support only some structured-output paths (the e2e scripted
 * server's personalities, lib/llm/scripted/personality.ts, reached by base URL like any provider):
 * a provider that only answers JSON in text gives a valid proposal for a request that is not in the
 * corpus, and the chat lists the repairs made; the designer evaluation runs from Settings on a
 * JSON-mode-only provider and stores its report.
 */
const SCRIPTED = `http://127.0.0.1:${SCRIPTED_PORT}`;
const NEW_REQUEST =
  "Translate a press release into Italian and Portuguese in parallel, then merge both versions into a single document";

async function addDesignerProvider(page: Page, name: string, personality: string): Promise<void> {
  const settings = new SettingsPage(page);
  await settings.goto();
  await settings.addProvider({
    name,
    baseUrl: `${SCRIPTED}/p/${personality}/v1`,
    defaultModel: "scripted-demo",
    apiKey: "sk-e2e-scripted",
  });
  const form = page.locator("form").filter({ has: page.locator('select[name="designerProviderId"]') });
  await form.locator('select[name="designerProviderId"]').selectOption({ label: name });
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Designer model saved.")).toBeVisible();
}

test("a provider that only answers JSON in text designs a valid workflow for a new request, and the chat lists the repairs", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpNewUser(page, "designer-text");
  await addDesignerProvider(page, "Plain chat only", "text-only");
  const before = (await (await page.request.get(`${SCRIPTED}/_scripted/requests`)).json()) as { requests: unknown[] };

  await page.goto("/workflows/new");
  await page.getByTestId("describe-input").fill(NEW_REQUEST);
  await page.getByTestId("describe-submit").click();
  await page.waitForURL(/\/workflows\/[^/]+\/edit/);
  const panel = page.getByTestId("designer-panel");
  await expect(panel.getByTestId("designer-proposal")).toBeVisible({ timeout: 120_000 });
  const repaired = panel.locator('[data-testid="designer-event"][data-type="repaired"]');
  await expect(repaired).toContainText("Repaired without asking the model: 1 kind mapped");
  await expect(repaired).toContainText('kind "aggregator" read as "agent"');
  await expect(panel.locator('[data-testid="designer-event"][data-type="done"]')).toContainText("Ready");
  await expect(panel.locator('[data-testid="designer-event"][data-type="failed"]')).toHaveCount(0);

  // the provider answered as plain text (prose and a code fence around the JSON): the path it was asked on was ignored
  const log = (await (await page.request.get(`${SCRIPTED}/_scripted/requests`)).json()) as {
    requests: {
      personality: string;
      status: number;
      rule: string;
      nearest?: number;
      body: { messages: { content: string }[] };
    }[];
  };
  const mine = log.requests
    .slice(before.requests.length)
    .filter((r) => r.personality === "text-only" && r.body.messages.some((m) => m.content.includes(NEW_REQUEST)));
  expect(mine.length).toBeGreaterThan(0);
  expect(mine[0]).toMatchObject({ status: 200, rule: "designer.n07-translate-aggregator-kind" });
  expect(mine[0]!.nearest).toBeGreaterThan(0);

  await panel.getByTestId("designer-accept-all").click();
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  await page.getByTestId("tab-issues").click();
  await expect(page.getByTestId("issues-empty")).toBeVisible();
});

test("the designer evaluation runs from Settings on a JSON-mode-only provider and stores its report", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpNewUser(page, "designer-eval");
  await addDesignerProvider(page, "JSON mode only", "json-mode");
  await page.getByTestId("designer-evaluation-link").click();
  await page.waitForURL("**/settings/designer-evaluation");
  await page.getByTestId("evaluation-provider").selectOption({ label: "JSON mode only" });
  await page.getByTestId("evaluation-start").click();
  const current = page.getByTestId("evaluation-current");
  await expect(current).toHaveAttribute("data-status", "running");
  await expect(current).toHaveAttribute("data-status", "done", { timeout: 180_000 });
  await expect(page.getByTestId("evaluation-valid")).toHaveText("100.0 %");
  await expect(page.getByTestId("evaluation-golden-structure")).toHaveText("100.0 %");
  await expect(page.getByTestId("evaluation-paths")).toHaveText(/^json_object ×\d+$/);
  const rows = page.getByTestId("evaluation-row");
  await expect(rows).toHaveCount(corpus.length);
  await expect(page.locator('[data-testid="evaluation-row"][data-valid="false"]')).toHaveCount(0);

  // stored: it is there after a reload
  await page.reload();
  await expect(page.getByTestId("evaluation-current")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("evaluation-progress")).toContainText(`${corpus.length} of ${corpus.length} requests`);
});
