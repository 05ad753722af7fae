import "server-only";
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import { env } from "@/lib/env";
import { createLogger } from "@/lib/logger";
import { slotPolicy, withSandboxSlot } from "./slots";

const log = createLogger({ component: "sandbox" });

/** A capability handed to sandboxed code as `caps[name](args)`; it runs in the HOST, so it must be safe. */
export type Capability = (args: unknown) => Promise<unknown>;

/** Options of one sandboxed run. Defaults: 1 s, 32 MB QuickJS heap, RSS cap heap+128 MB, 1 MB output. */
export interface SandboxOptions {
  /** Source that defines `function run(input, caps)` (sync or async). */
  code: string;
  /** JSON-serialisable input. */
  input?: unknown;
  timeoutMs?: number;
  memoryMb?: number;
  /** Hard cap on the whole child process's resident memory (catches what QuickJS's own limit misses). */
  rssLimitMb?: number;
  maxOutputBytes?: number;
  /** Explicit capabilities; nothing else reaches the host. */
  capabilities?: Record<string, Capability>;
  /**
   * Whose code this is: the run then holds one of that user's WEFT_SANDBOX_PER_USER slots (slots.ts),
   * waiting up to 10 s for one; over the cap it throws SandboxBusyError. Every caller acting for a
   * user passes it; only the app's own fixed code in tests runs without.
   */
  workspaceId?: string;
  /** Ends the wait for a slot early. */
  signal?: AbortSignal;
}

export type SandboxErrorKind = "timeout" | "memory" | "stack" | "error" | "output" | "crash";

/** Result of a run: JSON output, or a contained error; logs are the code's console.log lines. */
export type SandboxResult =
  | { ok: true; output: unknown; logs: string[]; durationMs: number }
  | { ok: false; error: { kind: SandboxErrorKind; name: string; message: string }; logs: string[]; durationMs: number };

const childMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("started") }),
  z.object({ type: z.literal("cap"), id: z.number(), name: z.string(), args: z.unknown() }),
  z.object({
    type: z.literal("done"),
    ok: z.boolean(),
    outputJson: z.string().optional(),
    error: z
      .object({
        kind: z.enum(["timeout", "memory", "stack", "error", "output", "crash"]),
        name: z.string(),
        message: z.string(),
      })
      .optional(),
    logs: z.array(z.string()),
    durationMs: z.number(),
  }),
]);

/** Path of the child runner; WEFT_SANDBOX_CHILD overrides it (e.g. in a bundled deployment). */
export function childPath(): string {
  return (
    env().WEFT_SANDBOX_CHILD ?? path.resolve(/* turbopackIgnore: true */ process.cwd(), "lib/tools/sandbox/child.mjs")
  );
}

function quickjsDirs(): string[] {
  const nm = path.resolve(process.cwd(), "node_modules");
  return [
    path.dirname(childPath()),
    path.join(nm, "quickjs-emscripten"),
    path.join(nm, "quickjs-emscripten-core"),
    path.join(nm, "@jitl"),
  ];
}

function spawnChild(): ChildProcess {
  const execArgv = [
    "--max-old-space-size=64",
    "--experimental-permission",
    ...quickjsDirs().map((d) => `--allow-fs-read=${d}`),
    "--disable-warning=ExperimentalWarning",
  ];
  // Empty environment: no secrets (X2) can reach the child, whatever the code does.
  return fork(/* turbopackIgnore: true */ childPath(), [], {
    execArgv,
    env: {} as NodeJS.ProcessEnv,
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "json",
  });
}

/** Resident set size of a Linux process in MB, or null when unknown (process gone / not Linux). */
function rssMb(pid: number): number | null {
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, "utf8").split(" ");
    return (Number(statm[1]) * 4096) / (1024 * 1024);
  } catch {
    return null;
  }
}

/**
 * Runs untrusted JS in a fresh QuickJS (WASM) runtime inside a fresh child process, holding one of
 * the owner's sandbox slots when `workspaceId` is given (throws SandboxBusyError when none frees up in
 * time; nothing else it does throws). Limits:
 * QuickJS memory limit + stack limit + deadline interrupt in the child; in the parent a wall-clock
 * kill (backstop at deadline + 10 % + 250 ms) and an RSS watchdog (polled every 10 ms) that SIGKILLs the child. The child
 * has an empty environment and Node's permission model (read-only access to quickjs files, no
 * child processes/workers/writes). Never throws for anything the code does.
 */
export async function runSandboxed(options: SandboxOptions): Promise<SandboxResult> {
  if (!options.workspaceId) return runInChild(options);
  return withSandboxSlot(
    options.workspaceId,
    slotPolicy(options.timeoutMs ?? 1000),
    () => runInChild(options),
    options.signal,
  );
}

function runInChild(options: SandboxOptions): Promise<SandboxResult> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const memoryMb = options.memoryMb ?? 32;
  const rssLimit = options.rssLimitMb ?? memoryMb + 128;
  const caps = options.capabilities ?? {};
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawnChild();
    const logs: string[] = [];
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    let startedAt = 0;
    let done = false;
    let wall: NodeJS.Timeout | undefined;
    const finish = (result: SandboxResult) => {
      if (done) return;
      done = true;
      clearInterval(watchdog);
      clearTimeout(wall);
      if (child.exitCode === null) child.kill("SIGKILL");
      resolve(result);
    };
    const fail = (kind: SandboxErrorKind, message: string) =>
      finish({
        ok: false,
        error: { kind, name: "SandboxError", message },
        logs,
        durationMs: Date.now() - (startedAt || t0),
      });
    const watchdog = setInterval(() => {
      const rss = child.pid ? rssMb(child.pid) : null;
      if (rss !== null && rss > rssLimit)
        fail("memory", `memory limit exceeded (process RSS ${Math.round(rss)} MB > ${rssLimit} MB)`);
    }, 10);
    child.on("message", (raw) => {
      const parsed = childMessage.safeParse(raw);
      if (!parsed.success) return fail("crash", "malformed message from sandbox");
      const msg = parsed.data;
      switch (msg.type) {
        case "started":
          startedAt = Date.now();
          // Backstop only: the child's interrupt normally stops the code at the deadline itself.
          wall = setTimeout(
            () => fail("timeout", `deadline of ${timeoutMs} ms exceeded`),
            Math.ceil(timeoutMs * 1.1) + 250,
          );
          return;
        case "cap":
          return void callCapability(child, caps, msg.id, msg.name, msg.args);
        case "done":
          return finish(toResult(msg, options.maxOutputBytes ?? 1_000_000));
        default:
          return msg satisfies never;
      }
    });
    child.on("exit", (code, signal) => {
      if (!done) log.warn("sandbox process exited early", { code, signal, stderr: stderr.slice(-500) });
      fail("crash", `sandbox process exited (${signal ?? code})`);
    });
    child.on("error", (err) => fail("crash", err.message));
    child.send({
      type: "run",
      code: options.code,
      input: options.input ?? null,
      timeoutMs,
      memoryBytes: memoryMb * 1024 * 1024,
      maxOutputBytes: options.maxOutputBytes ?? 1_000_000,
      capabilities: Object.keys(caps),
    });
  });
}

function toResult(msg: Extract<z.infer<typeof childMessage>, { type: "done" }>, maxBytes: number): SandboxResult {
  const base = { logs: msg.logs, durationMs: msg.durationMs };
  if (!msg.ok || msg.outputJson === undefined) {
    return { ok: false, error: msg.error ?? { kind: "crash", name: "SandboxError", message: "no result" }, ...base };
  }
  if (msg.outputJson.length > maxBytes)
    return { ok: false, error: { kind: "output", name: "RangeError", message: "output too large" }, ...base };
  return { ok: true, output: JSON.parse(msg.outputJson) as unknown, ...base };
}

async function callCapability(
  child: ChildProcess,
  caps: Record<string, Capability>,
  id: number,
  name: string,
  args: unknown,
) {
  const fn = Object.hasOwn(caps, name) ? caps[name] : undefined;
  let reply: { type: "capResult"; id: number; ok: boolean; value?: unknown; error?: string };
  try {
    if (!fn) throw new Error(`capability ${name} not granted`);
    reply = { type: "capResult", id, ok: true, value: JSON.parse(JSON.stringify((await fn(args)) ?? null)) as unknown };
  } catch (err) {
    reply = { type: "capResult", id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (child.connected) child.send(reply, (err) => err && log.debug("sandbox gone before capability reply", { name }));
}
