import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { e2eEnv } from "../playwright.config";
import { AppShell, newAccount, signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/** The security findings as a visitor meets them: the real built app, a real browser, loopback only. */

async function withDb<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: e2eEnv.DATABASE_URL });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

test("finding 11: every page carries a strict CSP with a fresh nonce on its scripts, and the app runs under it", async ({
  page,
  request,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) violations.push(m.text());
  });
  const first = await request.get("/sign-in");
  const policy = first.headers()["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeTruthy();
  expect(policy).toContain("'strict-dynamic'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(/script-src[^;]*'unsafe-(inline|eval)'/.test(policy)).toBe(false);
  const html = await first.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => !s.includes(`nonce="${nonce}"`))).toEqual([]);
  const second = (await request.get("/sign-in")).headers()["content-security-policy"];
  expect(/'nonce-([^']+)'/.exec(second ?? "")?.[1]).not.toBe(nonce);
  expect((await request.get("/api/health")).headers()["content-security-policy"]).toBe(
    "default-src 'none'; frame-ancestors 'none'",
  );

  // the app works under it: sign up, open a template in the editor (canvas, theme script, hydration)
  await signUpNewUser(page, "csp");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  await page.goto(`${page.url()}/edit`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  expect(violations).toEqual([]);
});

test("finding 11: share APIs answer Referrer-Policy: no-referrer, errors included", async ({ request }) => {
  const res = await request.get(`/api/share/${"A".repeat(43)}`);
  expect(res.status()).toBe(404);
  expect(res.headers()["referrer-policy"]).toBe("no-referrer");
  expect(res.headers()["x-robots-tag"]).toContain("noindex");
});

test("finding 11: a server action over 1 MB answers 413 naming the limit, not 500", async ({ page, baseURL }) => {
  await signUpNewUser(page, "big-action");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const res = await page.request.post("/settings", {
    headers: {
      "next-action": "00".repeat(21),
      "content-type": "text/plain;charset=UTF-8",
      origin: new URL(baseURL!).origin,
      cookie,
    },
    data: `["${"x".repeat(1_100_000)}"]`,
  });
  expect(res.status()).toBe(413);
  expect(((await res.json()) as { error: { message: string } }).error.message).toContain("WEFT_JSON_MAX_BYTES");
});

test("finding 7: a cross-site POST to /tools/create with the victim's session is refused and creates nothing", async ({
  page,
}) => {
  const account = await signUpNewUser(page, "csrf");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const body = JSON.stringify({ request: "a tool that converts Celsius to Fahrenheit" });
  const attacks: Record<string, string>[] = [
    { origin: "http://evil.example", "content-type": "application/json" },
    { "sec-fetch-site": "cross-site", "content-type": "application/json" },
    { "content-type": "text/plain" },
  ];
  for (const headers of attacks) {
    const res = await page.request.post("/tools/create", { headers: { ...headers, cookie }, data: body });
    expect(res.status(), JSON.stringify(headers)).toBe(403);
  }
  const tools = await withDb(
    async (db) =>
      (
        await db.query(
          `SELECT count(*) AS n FROM "Tool" t JOIN "User" u ON u.id = t."workspaceId" WHERE u.email = $1`,
          [account.email],
        )
      ).rows[0].n,
  );
  expect(Number(tools)).toBe(0);
});

test("finding 10: after sign-out the old session cookie no longer works", async ({ page, browser, baseURL }) => {
  await signUpNewUser(page, "signout");
  const stolen = await page.context().cookies();
  await new AppShell(page).signOut();
  const replay = await browser.newContext({ baseURL });
  try {
    await replay.addCookies(stolen);
    const other = await replay.newPage();
    await other.goto("/workflows");
    await other.waitForURL(/\/sign-in/);
    const api = await replay.request.get("/api/workflows");
    expect(api.status()).toBe(401);
  } finally {
    await replay.close();
  }
});

test("finding 6: a spoofed X-Forwarded-For does not move the sign-in limit off the client's own address", async ({
  request,
}) => {
  const { email } = newAccount("spoof");
  const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await request.post("/api/auth/callback/credentials", {
      form: { email, password: "not the password", csrfToken },
      headers: { "x-forwarded-for": `198.51.100.${i + 1}`, "x-real-ip": `203.0.113.${i + 1}` },
      maxRedirects: 0,
    });
    statuses.push(res.status());
  }
  expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
});

test("finding 2: the share page of a link without content shows no error or reason text of the run", async ({
  page,
}) => {
  const marker = `MARKER${randomUUID().slice(0, 8)}`;
  const account = await signUpNewUser(page, "share");
  const settings = new SettingsPage(page);
  await settings.goto();
  const token = await settings.createApiToken("share");
  const auth = { authorization: `Bearer ${token}` };
  const workflowId = randomUUID();
  const doc = {
    name: "Fails on its input",
    inputs: [{ key: "q", type: "text", description: "", required: true }],
    outputs: [{ key: "answer", type: "text", description: "" }],
    nodes: [
      { id: "start", type: "start" },
      { id: "calc", type: "tool", tool: { name: "math" }, args: { expression: "{{inputs.q}} + 1" } },
      { id: "stop", type: "abort", reason: "Refused: {{inputs.q}}" },
      { id: "end", type: "end", outputs: { answer: "{{nodes.calc.output}}" } },
    ],
    edges: [
      { id: "e1", source: "start", sourceHandle: "next", target: "calc" },
      { id: "e2", source: "calc", sourceHandle: "done", target: "end" },
      { id: "e3", source: "calc", sourceHandle: "error", target: "stop" },
    ],
  };
  await withDb((db) =>
    db.query(
      `INSERT INTO "Workflow" (id, "workspaceId", name, draft, "updatedAt") SELECT $1, id, 'Fails on its input', $2, now() FROM "User" WHERE email = $3`,
      [workflowId, doc, account.email],
    ),
  );
  const started = await page.request.post(`/api/workflows/${workflowId}/runs?wait=30`, {
    headers: auth,
    data: { inputs: { q: marker } },
  });
  expect(started.status()).toBe(201);
  const { run } = (await started.json()) as { run: { id: string; reason: string } };
  expect(run.reason).toContain(marker);
  const link = await page.request.post(`/api/runs/${run.id}/share`, {
    headers: auth,
    data: { expiresIn: "1h", includeContent: false },
  });
  const { url } = (await link.json()) as { url: string };
  const api = await page.request.get(new URL(url).pathname.replace("/share/", "/api/share/"));
  expect(await api.text()).not.toContain(marker);
  const viewer = await page.context().browser()!.newContext();
  try {
    const shared = await viewer.newPage();
    await shared.goto(url);
    await expect(shared.getByTestId("share-badge")).toHaveText(/Shared run/);
    await expect(shared.getByRole("heading", { name: /Run of Fails on its input/ })).toBeVisible();
    await shared.waitForTimeout(1_500); // the live stream has replayed every event
    expect(await shared.content()).not.toContain(marker);
    await expect(shared.getByText(/details are not shared by this link/).first()).toBeVisible();
  } finally {
    await viewer.close();
  }
});
