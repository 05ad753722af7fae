import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db/client";
import { approveToolVersion, listTools, saveCodeTool } from "@/lib/db/tools";
import { createTestUser } from "@/test/fixtures";
import { useTestDatabase } from "@/test/db";
import { hashCode } from "@/lib/crypto/code-hash";
import type { Resolver } from "@/lib/net";
import { executeTool, registryToolsPort, resolveTool } from "./registry";

useTestDatabase();
// Each test starts sandbox child processes; on a loaded 2-core machine that takes seconds each.
vi.setConfig({ testTimeout: 180_000 });

const ADD = `function run(i){ return { sum: i.a + i.b } }`;
const schema = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] };

let fixture: http.Server;
let port = 0;
const resolver: Resolver = async (name) => {
  if (name === "fixture.test" || name === "search.test") return [{ address: "127.0.0.1", family: 4 }];
  if (name === "intranet.test") return [{ address: "10.0.0.7", family: 4 }];
  throw new Error(`ENOTFOUND ${name}`);
};
const net = () => ({ resolver, testOnlyAllowAddresses: ["127.0.0.1"] });

beforeAll(async () => {
  fixture = http.createServer((req, res) => {
    if (req.url?.startsWith("/search")) {
      const q = new URL(req.url, "http://x").searchParams.get("q");
      return res.setHeader("content-type", "application/json").end(
        JSON.stringify({
          results: [
            { title: `About ${q}`, url: "https://example.org/a", content: "snippet" },
            { title: "Second", url: "https://example.org/b", content: "" },
          ],
        }),
      );
    }
    if (req.url === "/article")
      return res
        .setHeader("content-type", "text/html")
        .end(
          `<html><head><title>T</title></head><body><article>${"<p>Long readable paragraph about weaving multi-agent workflows together.</p>".repeat(40)}</article></body></html>`,
        );
    res.end(`page ${req.url}`);
  });
  await new Promise<void>((r) => fixture.listen(0, "127.0.0.1", r));
  port = (fixture.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => fixture.close(() => r())));

describe("X5: only the approved exact code runs", () => {
  test("unapproved → refused; approved → runs; changed in the database → refused", async () => {
    const owner = await createTestUser();
    const v1 = await saveCodeTool(owner.id, {
      name: "add_numbers",
      description: "Adds a and b",
      code: ADD,
      argsSchema: schema,
    });
    expect(v1).toMatchObject({ version: 1, codeHash: hashCode(ADD), approvedAt: null });
    expect(await resolveTool(owner.id, { name: "add_numbers" })).toBeNull();
    expect(await executeTool(owner.id, { name: "add_numbers" }, { a: 1, b: 2 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/no approved version/),
    });

    await expect(approveToolVersion(owner.id, v1.id, hashCode("something else"))).rejects.toThrow(/changed/);
    await approveToolVersion(owner.id, v1.id, hashCode(ADD));
    expect(await executeTool(owner.id, { name: "add_numbers" }, { a: 1, b: 2 })).toEqual({
      ok: true,
      output: { sum: 3 },
    });
    expect(await executeTool(owner.id, { name: "add_numbers" }, { a: 1 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/missing argument/),
    });

    await db().toolVersion.update({ where: { id: v1.id }, data: { code: `function run(){ return "tampered" }` } });
    expect(await resolveTool(owner.id, { name: "add_numbers" })).toBeNull();
    expect(await executeTool(owner.id, { name: "add_numbers" }, { a: 1, b: 2 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/hash mismatch/),
    });
  });

  test("a new version needs its own approval; the old approved one keeps running unless pinned", async () => {
    const owner = await createTestUser();
    const v1 = await saveCodeTool(owner.id, { name: "double", code: `function run(i){ return i.x * 2 }` });
    await approveToolVersion(owner.id, v1.id, v1.codeHash!);
    expect((await saveCodeTool(owner.id, { name: "double", code: `function run(i){ return i.x * 2 }` })).id).toBe(
      v1.id,
    );
    const v2 = await saveCodeTool(owner.id, { name: "double", code: `function run(i){ return i.x * 2 + 0 }` });
    expect(v2.version).toBe(2);
    expect(await executeTool(owner.id, { name: "double" }, { x: 4 })).toEqual({ ok: true, output: 8 });
    expect(await executeTool(owner.id, { name: "double", version: 2 }, { x: 4 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not approved/),
    });
  });

  test("tools are owner-scoped: another user can neither run nor approve them", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const v = await saveCodeTool(owner.id, { name: "secret_tool", code: ADD });
    await expect(approveToolVersion(other.id, v.id, v.codeHash!)).rejects.toThrow(/not found/);
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    expect(await executeTool(other.id, { name: "secret_tool" }, { a: 1, b: 1 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/does not exist/),
    });
    expect(await executeTool(other.id, { name: "secret_tool", toolId: v.toolId }, { a: 1, b: 1 })).toMatchObject({
      ok: false,
    });
    expect((await listTools(other.id)).length).toBe(0);
  });
});

describe("code tools with the http capability", () => {
  test("only the allowlisted domains, through the guard", async () => {
    const owner = await createTestUser();
    const code = `async function run(i, caps){ const r = await caps.http({ url: i.url }); return { status: r.status, body: r.body } }`;
    const v = await saveCodeTool(owner.id, {
      name: "fetcher",
      code,
      config: { allowedDomains: ["fixture.test"], timeoutMs: 15_000 },
    });
    await approveToolVersion(owner.id, v.id, v.codeHash!);
    const opts = { net: net() };
    expect(await executeTool(owner.id, { name: "fetcher" }, { url: `http://fixture.test:${port}/hi` }, opts)).toEqual({
      ok: true,
      output: { status: 200, body: "page /hi" },
    });
    expect(await executeTool(owner.id, { name: "fetcher" }, { url: `http://intranet.test/` }, opts)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/allowlist/),
    });
    expect(await executeTool(owner.id, { name: "fetcher" }, { url: `http://169.254.169.254/` }, opts)).toMatchObject({
      ok: false,
    });
  });
});

describe("built-ins", () => {
  test("descriptors carry JSON schemas; the port resolves and calls", async () => {
    const owner = await createTestUser();
    const port_ = registryToolsPort(owner.id, { net: net(), searchUrl: `http://search.test:${port}` });
    const d = await port_.resolve({ name: "math" });
    expect(d).toMatchObject({
      name: "math",
      sideEffect: false,
      parameters: { type: "object", required: ["expression"] },
    });
    const call = (name: string, args: Record<string, unknown>) =>
      port_.call({ ref: { name }, args, runId: "r", nodeId: "n", signal: new AbortController().signal });
    expect(await call("math", { expression: "sqrt(16) + x * 2", scope: { x: 3 } })).toEqual({
      ok: true,
      output: { result: "10" },
    });
    expect(await call("math", { expression: 'evaluate("1+1")' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/disabled/),
    });
    expect(await call("math", { expression: "import({}, {})" })).toMatchObject({ ok: false });
    expect(await call("word_count", { text: "one two  three\nfour" })).toEqual({
      ok: true,
      output: { words: 4, characters: 19, lines: 2 },
    });
    expect(await call("regex_extract", { text: "a1 b22 c333", pattern: "[a-z](\\d+)" })).toEqual({
      ok: true,
      output: { matches: [["1"], ["22"], ["333"]] },
    });
    expect(await call("regex_extract", { text: "a".repeat(40) + "!", pattern: "(a+)+$" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/too long/),
    });
    expect(await call("text_split", { text: "a, b,,c", separator: "," })).toEqual({
      ok: true,
      output: { parts: ["a", "b", "c"] },
    });
    expect(await call("text_join", { parts: ["a", "b"], separator: "-" })).toEqual({
      ok: true,
      output: { text: "a-b" },
    });
    expect(await call("run_javascript", { code: "function run(i){ return i.n + 1 }", input: { n: 1 } })).toEqual({
      ok: true,
      output: { output: 2, logs: [] },
    });
    expect(await call("web_search", { query: "weft", limit: 1 })).toEqual({
      ok: true,
      output: { results: [{ title: "About weft", url: "https://example.org/a", snippet: "snippet" }] },
    });
    expect(await call("http_request", { url: `http://fixture.test:${port}/x` })).toMatchObject({
      ok: true,
      output: { status: 200, body: "page /x" },
    });
    expect(await call("http_request", { url: "http://10.0.0.1/" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/non-public/),
    });
    const md = await call("web_page_markdown", { url: `http://fixture.test:${port}/article`, page: 2, pageSize: 600 });
    expect(md).toMatchObject({
      ok: true,
      output: { title: "T", page: 2, markdown: expect.stringContaining("weaving multi-agent") },
    });
    expect((md as { output: { pages: number } }).output.pages).toBeGreaterThan(2);
    expect(await call("math", { nope: 1 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/invalid arguments/),
    });
    expect(await port_.resolve({ name: "no_such_tool" })).toBeNull();
  });
});
