import * as z from "zod";
import { runSandboxed } from "@/lib/tools/sandbox";
import { defineBuiltin } from "./types";

export const wordCount = defineBuiltin({
  name: "word_count",
  description: "Counts words, characters and lines of a text.",
  sideEffect: false,
  args: z.object({ text: z.string().max(5_000_000) }),
  run: async ({ text }) => ({
    words: text.trim() === "" ? 0 : text.trim().split(/\s+/u).length,
    characters: [...text].length,
    lines: text === "" ? 0 : text.split(/\r\n|\r|\n/).length,
  }),
});

/** Runs inside the sandbox so a catastrophic-backtracking pattern hits the deadline, not the server. */
const REGEX_CODE = `function run(i){ const re = new RegExp(i.pattern, i.flags.includes("g") ? i.flags : i.flags + "g"); const out = []; for (const m of i.text.matchAll(re)) { out.push(m.length > 1 ? m.slice(1) : m[0]); if (out.length >= i.limit) break; } return out }`;

export const regexExtract = defineBuiltin({
  name: "regex_extract",
  description:
    "Extracts all matches of a regular expression from a text (capture groups when present). Stopped after 1 s.",
  sideEffect: false,
  args: z.object({
    text: z.string().max(1_000_000),
    pattern: z.string().min(1).max(1000),
    flags: z
      .string()
      .regex(/^[imsuy]*$/)
      .default(""),
    limit: z.number().int().min(1).max(10_000).default(100),
  }),
  run: async (args, ctx) => {
    const result = await runSandboxed({
      code: REGEX_CODE,
      input: args,
      timeoutMs: 1000,
      memoryMb: 64,
      workspaceId: ctx.workspaceId,
      signal: ctx.signal,
    });
    if (!result.ok)
      throw new Error(result.error.kind === "timeout" ? "regular expression took too long" : result.error.message);
    return { matches: result.output };
  },
});

export const textSplit = defineBuiltin({
  name: "text_split",
  description: "Splits a text by a separator (default: newline), trimming and dropping empty parts unless keepEmpty.",
  sideEffect: false,
  args: z.object({
    text: z.string().max(5_000_000),
    separator: z.string().default("\n"),
    keepEmpty: z.boolean().default(false),
  }),
  run: async ({ text, separator, keepEmpty }) => {
    const parts = text.split(separator).map((p) => p.trim());
    return { parts: keepEmpty ? parts : parts.filter((p) => p !== "") };
  },
});

export const textJoin = defineBuiltin({
  name: "text_join",
  description: "Joins parts with a separator (default: newline).",
  sideEffect: false,
  args: z.object({ parts: z.array(z.string()).max(100_000), separator: z.string().default("\n") }),
  run: async ({ parts, separator }) => ({ text: parts.join(separator) }),
});
