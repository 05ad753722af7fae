import { all, create } from "mathjs";
import * as z from "zod";
import { guardedFetch } from "@/lib/net";
import { runSandboxed } from "@/lib/tools/sandbox";
import { defineBuiltin } from "./types";

/** mathjs with the functions that could parse/evaluate further code disabled (mathjs security guide). */
const math = create(all ?? {});
const evaluate = math.evaluate.bind(math);
const refuse = () => {
  throw new Error("function disabled");
};
math.import(
  {
    import: refuse,
    createUnit: refuse,
    evaluate: refuse,
    parse: refuse,
    simplify: refuse,
    derivative: refuse,
    resolve: refuse,
    reviver: refuse,
    compile: refuse,
  },
  { override: true },
);

export const httpRequest = defineBuiltin({
  name: "http_request",
  description:
    "HTTP(S) request to a public URL (private/internal addresses are refused). Returns status, headers and the text body (≤ 2 MB).",
  sideEffect: true,
  args: z.object({
    url: z.string().url(),
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]).default("GET"),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().max(1_000_000).optional(),
  }),
  run: (args, ctx) => guardedFetch(args, ctx.net),
});

export const runJavascript = defineBuiltin({
  name: "run_javascript",
  description:
    "Runs JavaScript in an isolated sandbox (no network, files or environment). The code must define function run(input) and return JSON.",
  sideEffect: false,
  args: z.object({
    code: z.string().min(1).max(100_000),
    input: z.unknown().optional(),
    timeoutMs: z.number().int().min(50).max(10_000).default(2000),
  }),
  run: async (args, ctx) => {
    const result = await runSandboxed({
      code: args.code,
      input: args.input ?? null,
      timeoutMs: args.timeoutMs,
      workspaceId: ctx.workspaceId,
      signal: ctx.signal,
    });
    if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
    return { output: result.output, logs: result.logs };
  },
});

export const mathEval = defineBuiltin({
  name: "math",
  description:
    "Evaluates a math expression (mathjs syntax: arithmetic, units, matrices, functions like sqrt, log, mean). Optional numeric variables in scope.",
  sideEffect: false,
  args: z.object({ expression: z.string().min(1).max(2000), scope: z.record(z.string(), z.number()).optional() }),
  run: async ({ expression, scope }) => {
    const value: unknown = evaluate(expression, { ...scope });
    return { result: math.format(value as number, { precision: 14 }) };
  },
});
