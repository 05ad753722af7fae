#!/usr/bin/env node
// `npm run up`: the one command that installs, migrates, seeds and starts Weft (web :3000 + worker,
// plus the scripted model server when no OPENAI_BASE_URL is configured). Ctrl-C stops everything.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkServices } from "./lib/services.mjs";
import { ensureDotenv } from "./lib/dotenv.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
/** Node flags that run TypeScript entry points directly (signals reach the process, unlike via npx). */
const TSX = ["--import", "tsx", "--conditions=react-server"];
const say = (msg) => process.stdout.write(`\x1b[36m[weft]\x1b[0m ${msg}\n`);
const fail = (msg) => {
  process.stderr.write(`\x1b[31m[weft]\x1b[0m ${msg}\n`);
  process.exit(1);
};

function run(cmd, args, extraEnv = {}) {
  say(`$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  if (r.status !== 0) fail(`\`${cmd} ${args.join(" ")}\` failed (exit ${r.status}).`);
}

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) fail(`Node.js >= 20.19 is required (found ${process.versions.node}).`);

const { created } = ensureDotenv(path.join(root, ".env"));
if (created) say("Wrote .env with fresh AUTH_SECRET and WEFT_ENCRYPTION_KEY.");
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The local setup: users' model providers may be Ollama or LM Studio on this machine or network
// (the Docker profile leaves this off; see docs/security.md). An explicit setting in .env wins.
if (process.env.WEFT_PROVIDER_ALLOW_PRIVATE === undefined) {
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
  say("Providers may use private and loopback addresses (local model servers): WEFT_PROVIDER_ALLOW_PRIVATE=1.");
}
process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD = "1";

const problems = await checkServices();
if (problems.length) fail(`Cannot start:\n${problems.join("\n")}`);

const stamp = path.join(root, "node_modules", ".package-lock.json");
const lockChanged =
  !fs.existsSync(stamp) || fs.statSync(path.join(root, "package-lock.json")).mtimeMs > fs.statSync(stamp).mtimeMs;
if (lockChanged) run("npm", ["ci", "--no-audit", "--no-fund"]);
run("npx", ["prisma", "migrate", "deploy"]);
run(process.execPath, [...TSX, "prisma/seed.ts"]);
if (process.env.WEFT_SKIP_BUILD !== "1") run("npx", ["next", "build"]);

const children = [];
function start(name, color, cmd, args) {
  const child = spawn(cmd, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  const tag = `\x1b[${color}m[${name}]\x1b[0m `;
  const pipe = (stream, out) => {
    let buf = "";
    stream.on("data", (d) => {
      buf += d;
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const l of lines) out.write(tag + l + "\n");
    });
  };
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  child.on("exit", (code, signal) => {
    if (stopping) return;
    say(`${name} exited (${signal ?? code}); stopping the others.`);
    stop(code || 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 8000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on("exit", r))))).then(() =>
    process.exit(code),
  );
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

if (!process.env.OPENAI_BASE_URL) {
  say(`No OPENAI_BASE_URL set: starting the scripted demo model on :${process.env.WEFT_SCRIPTED_MODEL_PORT ?? 4010}.`);
  start("model", "35", process.execPath, [...TSX, "lib/llm/scripted/cli.ts"]);
}
start("worker", "33", process.execPath, [...TSX, "workers/main.ts"]);
start("web", "32", process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", process.env.PORT ?? "3000"]);
say("Weft is starting at http://localhost:3000 (Ctrl-C stops web, worker and model server).");
