import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

it("the model-server CLI serves the shipped fixtures and stops gracefully on SIGTERM", async () => {
  const port = await freePort();
  // node --import tsx (not the tsx CLI): the CLI's signal relay gives the child only 30 ms to
  // acknowledge SIGTERM, which a loaded machine misses, turning a graceful stop into exit 143
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "lib/llm/scripted/cli.ts"], {
    cwd: root,
    env: { ...process.env, WEFT_SCRIPTED_MODEL_PORT: String(port), LOG_LEVEL: "info" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  const deadline = Date.now() + 40_000;
  while (!log.includes("listening") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(log).toContain(`http://127.0.0.1:${port}/v1`);
  const models = (await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()) as { data: { id: string }[] };
  expect(models.data.map((m) => m.id)).toContain("scripted-demo");
  const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "scripted-demo", messages: [{ role: "user", content: "hello" }] }),
  });
  expect(res.headers.get("x-scripted-rule")).toBe("demo.greeting");
  child.kill("SIGTERM");
  const code = await exited;
  expect(log).toContain("stopping scripted model server");
  expect(code).toBe(0);
}, 60_000);
