import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { verifySignature } from "../lib/notifications/signature";
import { EditorPage } from "./pages/editor-page";
import { signUpNewUser } from "./pages/auth-pages";

type Hit = { headers: http.IncomingHttpHeaders; body: string };

/**
 * A notification URL from the workflow page: its signing secret shown once, "Send test" reaching a
 * receiver on this host, then a run from the editor POSTed to it by the real worker, signed, and the
 * page showing the delivery; paused, it is not told of the next run.
 */
test("a workflow's notification URL is tested, told of a run's end (signed) and shows the delivery; paused, it hears nothing", async ({
  page,
}) => {
  const hits: Hit[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/weft`;
  try {
    await signUpNewUser(page, "notify");
    await page
      .getByRole("list", { name: "Templates" })
      .getByRole("button", { name: /Article writer/ })
      .click();
    await page.waitForURL(/\/workflows\/[^/]+$/);
    const workflowId = new URL(page.url()).pathname.split("/").at(-1)!;
    await expect(page.getByText("No notification URLs.")).toBeVisible();

    await page.getByRole("button", { name: "Add URL" }).click();
    const dialog = page.getByRole("dialog", { name: "Add notification URL" });
    await dialog.getByLabel("URL").fill("ftp://example.com/x");
    await dialog.getByRole("button", { name: "Add URL" }).click();
    await expect(dialog.getByText("Enter an http:// or https:// URL")).toBeVisible();
    await dialog.getByLabel("URL").fill(url);
    await dialog.getByRole("button", { name: "Add URL" }).click();
    const secret = await dialog.getByTestId("new-signing-secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    await dialog.getByRole("button", { name: "Done" }).click();

    const row = page.getByTestId("notifier-row");
    await expect(row).toContainText(url);
    await expect(row).toContainText(`secret ••••${secret.slice(-4)}`);
    await expect(row.getByTestId("notifier-last")).toHaveText("Nothing sent yet");
    await row.getByRole("button", { name: "Send test" }).click();
    await expect(page.getByText("Test received (204).")).toBeVisible();
    expect(hits).toHaveLength(1);
    expect(hits[0]!.headers["x-weft-event"]).toBe("ping");
    expect(verifySignature(secret, hits[0]!.headers["x-weft-signature"] as string, hits[0]!.body)).toBe(true);

    const editor = new EditorPage(page);
    await editor.goto(workflowId);
    await editor.tab("run");
    await page.getByTestId("run-input-topic").fill("Signed webhooks");
    await page.getByTestId("run-start").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 90_000 });
    const runId = (await page.getByTestId("run-link").getAttribute("href"))!.split("/").pop()!;

    await expect.poll(() => hits.length, { timeout: 20_000 }).toBe(2);
    const told = hits[1]!;
    expect(told.headers["x-weft-event"]).toBe("run.finished");
    expect(verifySignature(secret, told.headers["x-weft-signature"] as string, told.body)).toBe(true);
    expect(JSON.parse(told.body)).toMatchObject({
      event: "run.finished",
      run: {
        id: runId,
        status: "succeeded",
        trigger: "manual",
        outputs: { article: expect.any(String) },
        url: expect.stringContaining(`/runs/${runId}`),
      },
    });

    // the run's page says where its end was sent and how it went
    await page.goto(`/runs/${runId}`);
    await expect(page.getByTestId("run-notifications")).toContainText(url);
    await expect(page.getByTestId("run-notifications")).toContainText("Delivered");

    await page.goto(`/workflows/${workflowId}`);
    await expect(row.getByTestId("notifier-last")).toContainText("Delivered");
    await expect(row.getByTestId("notifier-last")).toContainText("(204, 1 try)");

    // a delivery can be sent again from its row, under the same delivery id
    await row.getByTestId("notifier-deliveries").locator("summary").click();
    await row.getByTestId("delivery").getByRole("button", { name: "Send again" }).click();
    await expect(page.getByText("Sending again.")).toBeVisible();
    await expect.poll(() => hits.length, { timeout: 20_000 }).toBe(3);
    expect(hits[2]!.headers["x-weft-delivery"]).toBe(told.headers["x-weft-delivery"]);
    await page.reload();
    await expect(row.getByTestId("notifier-last")).toContainText("(204, 2 tries)");

    await row.getByRole("button", { name: "Edit" }).click();
    const editing = page.getByRole("dialog", { name: "Edit notification URL" });
    await expect(editing.getByLabel("URL")).toHaveValue(url);
    await editing.getByLabel("Send").selectOption("failures");
    await editing.getByRole("button", { name: "Save URL" }).click();
    await expect(editing).toBeHidden();
    await expect(row).toContainText("Runs that do not succeed");
    await expect(row).toContainText(`secret ••••${secret.slice(-4)}`);

    await row.getByRole("button", { name: "Pause" }).click();
    await expect(row.getByText("Paused", { exact: true })).toBeVisible();
    await editor.goto(workflowId);
    await editor.tab("run");
    await page.getByTestId("run-input-topic").fill("Nobody listens");
    await page.getByTestId("run-start").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded", { timeout: 90_000 });
    await page.waitForTimeout(1_000);
    expect(hits).toHaveLength(3);
  } finally {
    await new Promise<void>((r) => receiver.close(() => r()));
  }
});
