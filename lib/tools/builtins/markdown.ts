import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { z } from "zod";
import { guardedFetch } from "@/lib/tools/net";
import { defineBuiltin } from "./types";

/**
 * The document of an HTML text. Text without any element (a fragment, plain text, a comment) gives
 * linkedom a document without a root element, which Readability refuses: it is read as a body.
 */
function parseDocument(html: string) {
  const { document } = parseHTML(html);
  return document.documentElement ? document : parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`).document;
}

/** Readable Markdown of an HTML page: Readability's main content (or the body), converted by Turndown. */
export function htmlToMarkdown(html: string, url: string): { title: string; markdown: string } {
  const article = new Readability(parseDocument(html) as unknown as Document, { charThreshold: 100 }).parse();
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript"]);
  // Readability changes the document it reads: the fallback parses the text again
  const fallback = parseDocument(html);
  const source = article?.content ?? fallback.body?.innerHTML ?? "";
  const title = article?.title || fallback.title || url;
  return { title, markdown: turndown.turndown(source).trim() };
}

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
  description: "Fetches a public web page and returns its main content as Markdown, paged (ask for page 2, 3… of long pages).",
  sideEffect: false,
  args: z.object({ url: z.string().url(), page: z.number().int().min(1).default(1), pageSize: z.number().int().min(500).max(50_000).default(8000) }),
  run: async ({ url, page, pageSize }, ctx) => {
    const res = await guardedFetch({ url, headers: { accept: "text/html,application/xhtml+xml" } }, ctx.net);
    if (res.status >= 400) throw new Error(`the page answered ${res.status}`);
    const { title, markdown } = htmlToMarkdown(res.body, res.url);
    const pages = pageMarkdown(markdown, pageSize);
    if (page > pages.length) throw new Error(`page ${page} does not exist (the page has ${pages.length})`);
    return { title, url: res.url, page, pages: pages.length, markdown: pages[page - 1] };
  },
});
