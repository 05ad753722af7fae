import { expect, test } from "vitest";
import { htmlToMarkdown } from "@/lib/kb/html-markdown";
import { pageMarkdown } from "./markdown";

const article = `<html><head><title>Weft notes</title><script>var secret=1</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Weaving agents</h1>${Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i} explains how <strong>workflows</strong> loop and branch, with enough words to count as content for the readability scorer.</p>`).join("")}
<ul><li>one</li><li>two</li></ul></article><footer>© footer</footer></body></html>`;

test("main content becomes Markdown without scripts or navigation", () => {
  const { title, markdown } = htmlToMarkdown(article, "https://example.org/a");
  expect(title).toBe("Weft notes");
  expect(markdown).toContain("**workflows**");
  expect(markdown).toMatch(/-\s+one/);
  expect(markdown).not.toContain("secret");
  expect(markdown).not.toContain("About");
});

test("long Markdown is paged at paragraph boundaries, nothing lost", () => {
  const md = Array.from({ length: 30 }, (_, i) => `Block ${i} ${"x".repeat(90)}`).join("\n\n");
  const pages = pageMarkdown(md, 500);
  expect(pages.length).toBeGreaterThan(5);
  expect(pages.every((p) => p.length <= 500)).toBe(true);
  expect(pages.join("\n\n")).toBe(md);
  expect(pageMarkdown("y".repeat(1200), 500).map((p) => p.length)).toEqual([500, 500, 200]);
});
