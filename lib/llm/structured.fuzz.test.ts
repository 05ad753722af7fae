import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { structured, StructuredOutputError, type StructuredMethod } from "./structured";
import type { Reply } from "./scripted/fixture";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";

// L4: 1,000 fuzzed structured outputs — each either validates or ends as a typed failure;
// unvalidated data never comes back.
const schema = z.object({
  branch: z.enum(["approve", "revise"]),
  score: z.number().min(0).max(1),
  notes: z.array(z.string()).max(3),
});
const N = 1000;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fuzzValue(r: () => number): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const base: Record<string, unknown> = {
    branch: pick(["approve", "revise"]),
    score: r(),
    notes: pick([[], ["a"], ["a", "b"]]),
  };
  if (r() < 0.5) {
    const key = pick(["branch", "score", "notes"]);
    base[key] = pick([undefined, "maybe", "", 3, 1.5, -1, "0.3", null, ["a", "b", "c", "d"], [1], "x"]);
  }
  if (r() < 0.1) base.extra = { nested: [r()] };
  return pick([base, base, base, base, base, null, [base], "text", 42, {}]);
}

/** One fuzzed reply: structured value, raw/truncated args, prose around JSON, or garbage text. */
function fuzzReply(r: () => number): Reply {
  const value = fuzzValue(r);
  const json = JSON.stringify(value) ?? "null";
  switch (Math.floor(r() * 6)) {
    case 0:
      return { json: value };
    case 1:
      return {
        toolCalls: [{ name: "decide", rawArgs: json.slice(0, Math.floor(r() * json.length)) }],
        finishReason: r() < 0.5 ? "length" : "tool_calls",
      };
    case 2:
      return { text: `Sure: ${json} — done.` };
    case 3:
      return { text: "```json\n" + json + "\n```" };
    case 4:
      return { toolCalls: [{ name: r() < 0.8 ? "decide" : "other", rawArgs: json }] };
    default:
      return { text: json.replace(/[{}"]/g, () => (r() < 0.1 ? "" : '"')) };
  }
}

let server: ScriptedServer;
beforeAll(async () => {
  const r = mulberry32(20261130);
  server = await startScriptedServer({
    fixtures: [{ rules: [{ id: "fuzz", sequence: Array.from({ length: N }, () => fuzzReply(r)) }] }],
  });
});
afterAll(() => server.close());

describe("structured output fuzz (L4)", () => {
  it(`${N} fuzzed answers each validate or fail typed`, async () => {
    const config = { baseURL: server.url, apiKey: "k", model: "scripted-demo" };
    const methods: StructuredMethod[] = ["tool", "json_schema", "text"];
    const tally = { valid: 0, typed: 0 };
    const one = async (i: number) => {
      try {
        const res = await structured({
          config,
          messages: [{ role: "user", content: `case ${i}` }],
          schema,
          name: "decide",
          method: methods[i % 3],
          maxRepairs: 0,
        });
        expect(schema.safeParse(res.value).success).toBe(true);
        tally.valid += 1;
      } catch (e) {
        expect(e).toBeInstanceOf(StructuredOutputError);
        tally.typed += 1;
      }
    };
    for (let i = 0; i < N; i += 20)
      await Promise.all(Array.from({ length: Math.min(20, N - i) }, (_, k) => one(i + k)));
    expect(tally.valid + tally.typed).toBe(N);
    expect(tally.valid).toBeGreaterThan(N / 10);
    expect(tally.typed).toBeGreaterThan(N / 10);
    expect(server.requests()).toHaveLength(N);
  }, 120_000);
});
