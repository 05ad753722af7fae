import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/**
 * The document of an HTML text. Text without any element (a fragment, plain text, a comment) gives
 * linkedom a document without a root element, which Readability refuses: it is read as a body.
 */
function parseDocument(html: string) {
  const { document } = parseHTML(html);
  return document.documentElement
    ? document
    : parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`).document;
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
