/**
 * X1 escape payloads (docs/reliability.md): each tries to reach the host's process, files,
 * environment, network or child processes from inside the sandbox, and would RETURN what it reached
 * if it got there; blocked, it throws (or runs into a limit). Kept in a module so the X2 test reuses them.
 */
export const MARKER_FILE = "/tmp/weft-x1-escape-marker";

const write = `.writeFileSync(${JSON.stringify(MARKER_FILE)}, "escaped")`;

export const escapePayloads: Record<string, string> = {
  "constructor chain via this": `function run(){ return this.constructor.constructor("return process")().env.PATH }`,
  "Function constructor": `function run(){ return Function("return process")().mainModule.require("child_process").execSync("id").toString() }`,
  "function constructor chain": `function run(){ return (function(){}).constructor("return globalThis.process")().env }`,
  "array constructor chain to require": `function run(){ return [].constructor.constructor("return require")()("fs")${write} }`,
  "async function constructor": `async function run(){ const AF = Object.getPrototypeOf(async function(){}).constructor; return (await AF("return process")()).env.HOME }`,
  "generator function constructor": `function run(){ const GF = Object.getPrototypeOf(function*(){}).constructor; return GF("yield process.env")().next().value.HOME }`,
  "dynamic import fs": `async function run(){ const fs = await import("fs"); return fs${write} }`,
  "dynamic import node:child_process": `async function run(){ const cp = await import("node:child_process"); return cp.execSync("id").toString() }`,
  "quickjs os module": `async function run(){ const os = await import("os"); return os.exec(["id"]) }`,
  "quickjs std module": `async function run(){ const std = await import("std"); return std.getenv("PATH") }`,
  require: `function run(){ return require("child_process").execSync("id").toString() }`,
  "process.binding": `function run(){ return process.binding("spawn_sync").spawn({file:"id"}) }`,
  "globalThis.process": `function run(){ return globalThis.process.env }`,
  WebAssembly: `function run(){ return new WebAssembly.Module(new Uint8Array([0,97,115,109,1,0,0,0])) }`,
  SharedArrayBuffer: `function run(){ return new SharedArrayBuffer(1024).byteLength }`,
  "Atomics.wait": `function run(){ return Atomics.wait(new Int32Array(4), 0, 0, 10000) }`,
  "Proxy get trap on output": `function run(){ return new Proxy({}, { get(){ return process.env }, ownKeys(){ return ["env"] }, getOwnPropertyDescriptor(){ return { enumerable: true, configurable: true, value: process.env } } }) }`,
  "Proxy trap on capability arguments": `async function run(input, caps){ const r = await caps.echo(new Proxy({}, { get(){ return require("fs") } })); return r.fs${write} }`,
  "getter on output": `function run(){ return { get x(){ return require("fs")${write} } } }`,
  "toJSON on output": `function run(){ return { toJSON(){ return process.env } } }`,
  "Error.prepareStackTrace": `function run(){ Error.prepareStackTrace = (e, frames) => frames[0].getThis(); const t = new Error().stack; return t.process.env }`,
  "Error.captureStackTrace": `function run(){ const o = {}; Error.captureStackTrace(o); return o.stack.constructor.constructor("return process")().env }`,
  "error stack constructor": `function run(){ try { null.x } catch (e) { return e.stack.constructor.constructor("return process")().env } }`,
  "caps constructor chain": `function run(input, caps){ return caps.constructor.constructor("return process")().env }`,
  "console.log constructor chain": `function run(){ return console.log.constructor("return process")().env }`,
  "arguments.callee.caller": `function run(){ return (function(){ return arguments.callee.caller.caller.constructor("return process")() })().env }`,
  "with statement": `function run(){ with (globalThis) { return process.env } }`,
  "indirect eval": `function run(){ return (0, eval)("process").env }`,
  "new Function this": `function run(){ return new Function("return this")().process.env }`,
  "Reflect.construct Function": `function run(){ return Reflect.construct(Function, ["return process"])().env }`,
  "promise then constructor": `function run(){ return Promise.resolve().then.constructor("return process")().env }`,
  "JSON.parse reviver this": `function run(){ return JSON.parse("{}", function(){ return this.constructor.constructor("return require")() })("fs") }`,
  "prototype pollution then lookup": `function run(){ Object.prototype.require = undefined; Object.prototype.process = undefined; return ({}).process.env }`,
  "globalThis walk": `function run(){ const hits = Object.getOwnPropertyNames(globalThis).filter((n) => /^(process|require|module|Buffer|fetch|XMLHttpRequest|setTimeout|std|os|Deno|Bun|Worker|SharedArrayBuffer|Atomics|WebAssembly)$/.test(n)); if (!hits.length) throw new Error("no host globals"); return hits }`,
  "fetch metadata": `async function run(){ return (await fetch("http://169.254.169.254/latest/meta-data/")).text() }`,
  "setTimeout host timer": `function run(){ return setTimeout(() => 0, 0) }`,
  "Symbol.for inspect custom": `function run(){ const o = { [Symbol.for("nodejs.util.inspect.custom")]() { return process } }; console.log(o); return o[Symbol.for("nodejs.util.inspect.custom")]().env }`,
  "toString coercion": `function run(){ return "" + { toString(){ return process.env.PATH } } }`,
  Worker: `function run(){ return new Worker("data:,1") }`,
};
