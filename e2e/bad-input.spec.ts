import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { buildDocx, buildZip, deflatedZip } from "@/lib/kb/testing/fixtures";
import { e2eEnv } from "../playwright.config";
import {
  actionPayloads,
  actionTargets,
  jsonRoutes,
  MARKER,
  uploadCases,
  type ActionPayload,
  type Body,
  type JsonRoute,
  type Payload,
  type UploadCase,
} from "../test/bad-input/corpus";
import { signUpNewUser } from "./pages/auth-pages";
import { SettingsPage } from "./pages/settings-page";

/**
 * The bad-input corpus (test/bad-input/corpus.ts) against the real built app: every JSON route and
 * server action (through proxy.ts and Next), knowledge-base uploads and webhook calls. Each case
 * must be answered 4xx with a clear message; none 5xx; and afterwards no table holds one row more
 * than before (the webhook's call log aside: it records refusals by design) nor the corpus marker.
 */

/** One request as sent, bytes exactly as given (node:http: no client adds or fixes anything). */
interface Sent {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Body;
  chunked?: boolean;
}
interface Answer {
  status: number;
  text: string;
}

function send(base: string, r: Sent): Promise<Answer> {
  const url = new URL(r.path, base);
  const body = typeof r.body === "string" ? Buffer.from(r.body, "utf8") : Buffer.from(r.body);
  const headers: Record<string, string | number> = { ...r.headers };
  if (r.chunked) headers["transfer-encoding"] = "chunked";
  else headers["content-length"] = body.byteLength;
  return new Promise((resolve, reject) => {
    // a request the server never answers is an answer too: recorded as status 0, and the corpus fails on it
    const timer = setTimeout(() => {
      req.destroy();
      resolve({ status: 0, text: "no answer within 30 s" });
    }, 30_000);
    const req = http.request(url, { method: r.method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8") });
      });
      res.on("error", reject);
    });
    // the server may answer (413) and close before the whole body is written
    req.on("error", (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    if (r.chunked) {
      for (let i = 0; i < body.byteLength; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
      req.end();
    } else req.end(body);
  });
}

/** The refusal's words: `{error:{message}}`, `{error: "…"}` (the tool dialog) or a JSON-RPC error. */
function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: string | { message?: unknown } };
    return typeof body.error === "string"
      ? body.error
      : typeof body.error?.message === "string"
        ? body.error.message
        : "";
  } catch {
    return "";
  }
}

interface Ids {
  workflowId: string;
  runId: string;
  scheduleId: string;
  secret: string;
  collectionId: string;
}

const fill = (p: string, ids: Ids) =>
  p
    .replace("{workflowId}", ids.workflowId)
    .replace("{runId}", ids.runId)
    .replace("{scheduleId}", ids.scheduleId)
    .replace("{secret}", ids.secret);

function routeCases(routes: JsonRoute[], ids: Ids, auth: { token: string; cookie: string; origin: string }): Sent[] {
  return routes.flatMap((route) =>
    route.families.flat().map((p: Payload): Sent => {
      const who: Record<string, string> =
        route.auth === "token"
          ? { authorization: `Bearer ${auth.token}` }
          : route.auth === "session"
            ? { cookie: auth.cookie, origin: auth.origin }
            : {};
      const accept: Record<string, string> =
        route.name === "MCP" ? { accept: "application/json, text/event-stream" } : {};
      return {
        name: `${route.name} ← ${p.name}`,
        method: route.method,
        path: fill(route.path, ids),
        body: p.body,
        chunked: p.chunked,
        headers: { ...who, ...accept, ...(p.contentType ? { "content-type": p.contentType } : {}) },
      };
    }),
  );
}

/** Action ids and a page each one is posted to, from the build's server-reference manifest. */
function actionIds(): Map<string, { id: string; page: string }> {
  const dist = path.resolve(process.env.NEXT_DIST_DIR ?? "e2e/.tmp/next");
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, "server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
  };
  const out = new Map<string, { id: string; page: string }>();
  for (const [id, entry] of Object.entries(manifest.node)) {
    if (!entry.exportedName || !entry.filename) continue;
    const worker = Object.keys(entry.workers)[0] ?? "app/page";
    const page =
      worker
        .replace(/^app/, "")
        .replace(/\/page$/, "")
        .replace(/\/\([^)]+\)/g, "")
        .replace(/\[[^\]]+\]/g, "x") || "/";
    out.set(`${entry.filename}#${entry.exportedName}`, { id, page });
  }
  return out;
}

function actionBody(p: ActionPayload): { body: Body; contentType: string } {
  if (p.encoding === "text") return { body: p.body as Body, contentType: "text/plain;charset=UTF-8" };
  const boundary = "----WeftCorpusBoundary7e1c5a";
  const part = (head: string, value: Body) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`), Buffer.from(value), Buffer.from("\r\n")]);
  const fields = Object.entries(p.body as Record<string, Body>).map(([k, v]) =>
    part(`Content-Disposition: form-data; name="${k}"`, v),
  );
  if (p.file)
    fields.push(
      part(
        `Content-Disposition: form-data; name="1_file"; filename="x.bin"\r\nContent-Type: application/octet-stream`,
        MARKER,
      ),
    );
  return {
    body: Buffer.concat([...fields, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function actionCases(auth: { cookie: string; origin: string }): Sent[] {
  const ids = actionIds();
  return actionTargets.flatMap((target) => {
    const found = ids.get(`${target.file}#${target.name}`);
    if (!found) throw new Error(`no server action ${target.name} in the build`);
    return actionPayloads.map((p): Sent => {
      const { body, contentType } = actionBody(p);
      return {
        name: `action ${target.name} ← ${p.name}`,
        method: "POST",
        path: found.page,
        body,
        chunked: p.chunked,
        headers: {
          "next-action": found.id,
          "content-type": contentType,
          accept: "text/x-component",
          origin: auth.origin,
          ...(target.session ? { cookie: auth.cookie } : {}),
        },
      };
    });
  });
}

function uploadBytes(kind: UploadCase["kind"]): Body {
  const docxPart = (body: string) => buildDocx([body]);
  switch (kind) {
    case "docx-bomb":
    case "docx-liar": {
      const doc = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${"<w:p/>".repeat(7_000_000)}<w:p><w:r><w:t>${MARKER}</w:t></w:r></w:p></w:body></w:document>`;
      return deflatedZip(
        { "[Content_Types].xml": "<Types/>", "word/document.xml": doc },
        kind === "docx-liar" ? { "word/document.xml": 4096 } : {},
      );
    }
    case "docx-truncated":
      return docxPart(MARKER).subarray(0, 200);
    case "zip-not-docx":
      return buildZip({ "notes.txt": MARKER });
    case "pdf-junk":
      return `%PDF-1.4\n${MARKER} this is not a PDF body\n%%EOF`;
    case "html-empty":
      return `<!-- ${MARKER} -->`;
    case "text-nul":
      return `${MARKER}\u0000binary`;
    case "text-bad-utf8":
      return new Uint8Array([...new TextEncoder().encode(MARKER), 0xe9, 0x74, 0xe9]);
    case "unsupported":
    case "no-name":
      return MARKER;
    case "csv-broken":
      return `a,b\n"${MARKER},2\n"x"y,3\n`;
    case "too-large":
      return `${MARKER}${"x".repeat(10 * 1_048_576)}`;
  }
}

function uploadRequests(collectionId: string, token: string): Sent[] {
  return uploadCases.map((u): Sent => ({
    name: `upload ← ${u.name}`,
    method: "POST",
    path: `/api/kb/collections/${collectionId}/documents`,
    body: uploadBytes(u.kind),
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/octet-stream",
      ...(u.filename ? { "x-kb-filename": encodeURIComponent(u.filename) } : {}),
    },
  }));
}

async function tableCounts(db: pg.Client): Promise<Record<string, number>> {
  const tables = (
    await db.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'",
    )
  ).rows;
  const out: Record<string, number> = {};
  for (const { tablename } of tables)
    out[tablename] = Number((await db.query(`SELECT count(*) AS n FROM "${tablename}"`)).rows[0].n);
  return out;
}

async function tablesHolding(db: pg.Client, marker: string): Promise<string[]> {
  const tables = Object.keys(await tableCounts(db));
  const hits: string[] = [];
  for (const t of tables)
    if (
      Number((await db.query(`SELECT count(*) AS n FROM "${t}" x WHERE x::text LIKE $1`, [`%${marker}%`])).rows[0].n) >
      0
    )
      hits.push(t);
  return hits;
}

test("the bad-input corpus: every route and server action answers 4xx with a clear message, none 5xx, nothing stored", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const origin = new URL(baseURL!).origin;
  const account = await signUpNewUser(page, "corpus");
  await page
    .getByRole("list", { name: "Templates" })
    .getByRole("button", { name: /Article writer/ })
    .click();
  await page.waitForURL(/\/workflows\/[^/]+$/);
  const workflowId = new URL(page.url()).pathname.split("/").at(-1)!;
  const settings = new SettingsPage(page);
  await settings.goto();
  const token = await settings.createApiToken("corpus");
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

  // what the cases address: a run (its start also saves version 1), a schedule, a webhook, a collection
  const api = (p: string, data: unknown) =>
    page.request.post(p, { data, headers: { authorization: `Bearer ${token}` } });
  const started = await api(`/api/workflows/${workflowId}/runs`, { inputs: { topic: "owls" } });
  expect(started.status()).toBe(201);
  const runId = ((await started.json()) as { run: { id: string } }).run.id;
  // the run ends first, so nothing it writes is counted as the corpus's
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as { run: { status: string } }
        ).run.status,
      { timeout: 90_000 },
    )
    .toMatch(/^(succeeded|failed|aborted|cancelled|budget_exhausted)$/);
  const schedule = await api(`/api/workflows/${workflowId}/schedules`, {
    cron: "@yearly",
    timezone: "UTC",
    inputs: { topic: "owls" },
  });
  expect(schedule.status()).toBe(201);
  const scheduleId = ((await schedule.json()) as { schedule: { id: string } }).schedule.id;
  const hook = await api(`/api/workflows/${workflowId}/webhooks`, { name: "corpus" });
  expect(hook.status()).toBe(201);
  const secret = ((await hook.json()) as { secret: string }).secret;
  const db = new pg.Client({ connectionString: e2eEnv.DATABASE_URL });
  await db.connect();
  try {
    const owner = (await db.query<{ id: string }>(`SELECT id FROM "User" WHERE email = $1`, [account.email])).rows[0]!
      .id;
    const collectionId = `corpus-${Date.now()}`;
    await db.query(
      `INSERT INTO "KbCollection" (id, "workspaceId", name, "updatedAt") VALUES ($1, $2, 'Corpus', now())`,
      [collectionId, owner],
    );
    const ids: Ids = { workflowId, runId, scheduleId, secret, collectionId };

    const cases = [
      ...routeCases(jsonRoutes, ids, { token, cookie, origin }),
      ...actionCases({ cookie, origin }),
      ...uploadRequests(collectionId, token),
    ];
    expect(cases.length).toBeGreaterThanOrEqual(100);
    const before = await tableCounts(db);
    const answers: Array<{ name: string; status: number; message: string }> = [];
    for (const c of cases) {
      const t0 = Date.now();
      const a = await send(baseURL!, c);
      if (Date.now() - t0 > 5_000) console.log(`slow: ${c.name} took ${Date.now() - t0} ms (${a.status})`);
      answers.push({ name: c.name, status: a.status, message: messageOf(a.text) });
    }
    const after = await tableCounts(db);

    const fiveHundreds = answers.filter((a) => a.status >= 500);
    const not4xx = answers.filter((a) => a.status < 400 || a.status > 499);
    const unclear = answers.filter((a) => a.message.trim().length < 10 || /something went wrong/i.test(a.message));
    console.log(
      `bad-input corpus: ${answers.length} cases, ${fiveHundreds.length} answered 5xx, statuses ${JSON.stringify(countBy(answers.map((a) => a.status)))}`,
    );
    expect(fiveHundreds, "answered 5xx").toEqual([]);
    expect(not4xx, "answered other than 4xx").toEqual([]);
    // a rate limit answering first would mean the case never reached its guard
    expect(
      answers.filter((a) => a.status === 429),
      "rate limited instead of checked",
    ).toEqual([]);
    expect(unclear, "refused without a clear message").toEqual([]);
    // nothing stored: no table grew (the webhook call log records refusals by design), and no table holds the marker
    const grown = Object.keys(after)
      .filter((t) => t !== "WebhookCall" && after[t] !== before[t])
      .map((t) => `${t}: ${before[t]} → ${after[t]}`);
    expect(grown).toEqual([]);
    expect(await tablesHolding(db, MARKER)).toEqual([]);
  } finally {
    await db.end();
  }
});

function countBy(values: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
