// Sandbox child process (plain ESM so it runs without a TypeScript loader).
// Started by ./sandbox.ts with an empty environment, Node's permission model (read-only access to
// quickjs only; no child processes, workers or writes) and a parent RSS/wall-clock watchdog.
// Runs ONE job: evaluates untrusted JS inside a fresh QuickJS (WASM) runtime with a memory limit,
// a stack limit and a deadline interrupt; JSON in, JSON out; capabilities are proxied to the parent.
import { getQuickJS, shouldInterruptAfterDeadline } from "quickjs-emscripten";

const send = (msg) => new Promise((resolve) => (process.send ? process.send(msg, () => resolve()) : resolve()));
const pending = new Map();
let nextCapId = 1;

process.on("message", (msg) => {
  if (msg?.type === "run") void runJob(msg).finally(() => process.exit(0));
  if (msg?.type === "capResult") {
    const waiter = pending.get(msg.id);
    pending.delete(msg.id);
    waiter?.(msg);
  }
});

function classify(err) {
  const name = String(err?.name ?? "Error");
  const message = String(err?.message ?? err);
  if (/interrupted/i.test(message)) return { kind: "timeout", name, message };
  if (/out of memory/i.test(message)) return { kind: "memory", name, message };
  if (/stack overflow/i.test(message)) return { kind: "stack", name, message };
  return { kind: "error", name, message: message.slice(0, 2000) };
}

function dumpError(context, handle) {
  const value = context.dump(handle);
  handle.dispose();
  // QuickJS throws null when it cannot even allocate the "out of memory" error (freed again by the
  // time we look, so usage can't tell); a literal `throw null` is reported the same way.
  if (value == null) return { kind: "memory", name: "InternalError", message: "out of memory (or a thrown null)" };
  return classify(value);
}

/** Creates the `caps` object handed to run(): only the granted capability names, each async. */
function makeCaps(context, runtime, names) {
  const caps = context.newObject();
  for (const name of names) {
    const fn = context.newFunction(name, (argHandle) => {
      const deferred = context.newPromise();
      const id = nextCapId++;
      let args = null;
      try {
        args = argHandle ? context.dump(argHandle) : null;
      } catch {
        args = null;
      }
      pending.set(id, (reply) => {
        if (!deferred.alive) return;
        if (reply.ok) {
          const json = JSON.stringify(reply.value ?? null);
          const result = context.unwrapResult(context.evalCode(`(${json})`));
          deferred.resolve(result);
          result.dispose();
        } else {
          const error = context.newError(String(reply.error ?? "capability failed"));
          deferred.reject(error);
          error.dispose();
        }
        runtime.executePendingJobs();
      });
      void send({ type: "cap", id, name, args });
      return deferred.handle;
    });
    context.setProp(caps, name, fn);
    fn.dispose();
  }
  return caps;
}

function installConsole(context, logs, maxLogs) {
  const consoleObj = context.newObject();
  const log = context.newFunction("log", (...args) => {
    if (logs.length >= maxLogs) return;
    logs.push(
      args
        .map((a) => {
          const v = context.dump(a);
          return typeof v === "string" ? v : JSON.stringify(v);
        })
        .join(" ")
        .slice(0, 1000),
    );
  });
  context.setProp(consoleObj, "log", log);
  context.setProp(context.global, "console", consoleObj);
  log.dispose();
  consoleObj.dispose();
}

async function settle(context, runtime, handle, deadline) {
  let state = null;
  context.resolvePromise(handle).then((r) => {
    state = r;
  });
  handle.dispose();
  while (state === null) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error) return { error: jobs.error };
    if (state !== null) break;
    if (Date.now() > deadline) return { timeout: true };
    await new Promise((r) => setTimeout(r, pending.size > 0 ? 2 : 0));
  }
  return state;
}

async function runJob(job) {
  const QuickJS = await getQuickJS();
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(job.memoryBytes);
  runtime.setMaxStackSize(256 * 1024);
  const logs = [];
  const context = runtime.newContext();
  // No shared memory or atomics in a single-threaded sandbox: fewer primitives for side channels.
  context.evalCode("delete globalThis.SharedArrayBuffer; delete globalThis.Atomics;").value?.dispose();
  await send({ type: "started" });
  const started = Date.now();
  const deadline = started + job.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const finish = (result) => send({ type: "done", ...result, logs, durationMs: Date.now() - started });
  try {
    installConsole(context, logs, 100);
    const defined = context.evalCode(job.code, "tool.js");
    if (defined.error) return finish({ ok: false, error: dumpError(context, defined.error) });
    defined.value.dispose();
    const runFn = context.getProp(context.global, "run");
    if (context.typeof(runFn) !== "function") {
      runFn.dispose();
      return finish({
        ok: false,
        error: { kind: "error", name: "TypeError", message: "the code must define function run(input, caps)" },
      });
    }
    const input = context.unwrapResult(context.evalCode(`(${JSON.stringify(job.input ?? null)})`));
    const caps = makeCaps(context, runtime, job.capabilities);
    const called = context.callFunction(runFn, context.undefined, input, caps);
    runFn.dispose();
    input.dispose();
    caps.dispose();
    if (called.error) return finish({ ok: false, error: dumpError(context, called.error) });
    const settled = await settle(context, runtime, called.value, deadline);
    if (settled.timeout)
      return finish({ ok: false, error: { kind: "timeout", name: "InternalError", message: "interrupted" } });
    if (settled.error) return finish({ ok: false, error: dumpError(context, settled.error) });
    const out = settled.value;
    const stringify = context.getProp(context.global, "JSON").consume((j) => context.getProp(j, "stringify"));
    const json = context.callFunction(stringify, context.undefined, out);
    stringify.dispose();
    out.dispose();
    if (json.error) return finish({ ok: false, error: dumpError(context, json.error) });
    const text = context.typeof(json.value) === "string" ? context.getString(json.value) : "null";
    json.value.dispose();
    if (text.length > job.maxOutputBytes) {
      return finish({
        ok: false,
        error: { kind: "output", name: "RangeError", message: `output larger than ${job.maxOutputBytes} bytes` },
      });
    }
    return finish({ ok: true, outputJson: text });
  } catch (err) {
    return finish({ ok: false, error: classify(err) });
  }
}
