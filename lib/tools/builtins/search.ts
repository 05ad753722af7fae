import * as z from "zod";
import { guardedFetch } from "@/lib/net";
import { defineBuiltin } from "./types";

const searxResults = z.object({
  results: z
    .array(z.object({ title: z.string().default(""), url: z.string(), content: z.string().default("") }).passthrough())
    .default([]),
});

export const webSearch = defineBuiltin({
  name: "web_search",
  description: "Searches the web (configured SearXNG-compatible provider). Returns titles, URLs and snippets.",
  sideEffect: false,
  args: z.object({ query: z.string().min(1).max(500), limit: z.number().int().min(1).max(20).default(5) }),
  run: async ({ query, limit }, ctx) => {
    if (!ctx.searchUrl)
      throw new Error("web search is not configured (set WEFT_SEARCH_URL to a SearXNG-compatible URL)");
    const url = new URL("search", ctx.searchUrl.endsWith("/") ? ctx.searchUrl : `${ctx.searchUrl}/`);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    const res = await guardedFetch({ url: url.toString(), headers: { accept: "application/json" } }, ctx.net);
    if (res.status !== 200) throw new Error(`search provider answered ${res.status}`);
    const parsed = searxResults.parse(JSON.parse(res.body));
    return { results: parsed.results.slice(0, limit).map((r) => ({ title: r.title, url: r.url, snippet: r.content })) };
  },
});
