import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** Readable Markdown of an HTML page: Readability's main content (or the body), converted by Turndown. */
export function htmlToMarkdown(html: string, url: string): { title: string; markdown: string } {
  const { document } = parseHTML(html);
  const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.remove(["script", "style", "noscript"]);
  const source = article?.content ?? parseHTML(html).document.body?.innerHTML ?? "";
  const title = article?.title || parseHTML(html).document.title || url;
  return { title, markdown: turndown.turndown(source).trim() };
}
