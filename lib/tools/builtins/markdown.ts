import * as z from "zod";
import { htmlToMarkdown } from "@/lib/kb/html-markdown";
import { guardedFetch } from "@/lib/net";
import { defineBuiltin } from "./types";

/** Splits Markdown into pages of at most `size` characters, at paragraph boundaries where possible. */
export function pageMarkdown(markdown: string, size: number): string[] {
  const pages: string[] = [];
  let current = "";
  for (const block of markdown.split(/\n{2,}/)) {
    const piece = current ? `${current}\n\n${block}` : block;
    if (piece.length <= size) current = piece;
    else {
      if (current) pages.push(current);
      for (let i = 0; i < block.length; i += size) pages.push(block.slice(i, i + size));
      current = pages.pop() ?? "";
    }
  }
  if (current) pages.push(current);
  return pages.length ? pages : [""];
}

export const webPageMarkdown = defineBuiltin({
  name: "web_page_markdown",
  description:
    "Fetches a public web page and returns its main content as Markdown, paged (ask for page 2, 3… of long pages).",
  sideEffect: false,
  args: z.object({
    url: z.string().url(),
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(500).max(50_000).default(8000),
  }),
  run: async ({ url, page, pageSize }, ctx) => {
    const res = await guardedFetch({ url, headers: { accept: "text/html,application/xhtml+xml" } }, ctx.net);
    if (res.status >= 400) throw new Error(`the page answered ${res.status}`);
    const { title, markdown } = htmlToMarkdown(res.body, res.url);
    const pages = pageMarkdown(markdown, pageSize);
    if (page > pages.length) throw new Error(`page ${page} does not exist (the page has ${pages.length})`);
    return { title, url: res.url, page, pages: pages.length, markdown: pages[page - 1] };
  },
});
