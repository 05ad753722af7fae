/**
 * B3 page server (node:http, free loopback port): /ours?n=N and /peer?n=N render the same graph
 * (bench/editor/graph.ts) into the editor bundle or the plain React Flow bundle, preloading the
 * chunks each imports (build.ts) and, for ours, Inter's Latin file (as the app's root layout does);
 * static files come from the build directory. Nothing is cached by
 * the browser (no-store), so each load is cold.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { benchWorkflow, peerGraph } from "./graph";

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};

export type Arm = "ours" | "peer";

/** Inline JSON safe inside a <script> element. */
const inline = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

function pageHtml(dir: string, arm: Arm, n: number): string {
  const doc = benchWorkflow(n);
  const data = arm === "ours" ? doc : peerGraph(doc);
  const css = arm === "ours" ? ["/tailwind.css", "/ours.css"] : ["/peer.css"];
  const chunks =
    (JSON.parse(fs.readFileSync(path.join(dir, "preload.json"), "utf8")) as Record<string, string[]>)[arm] ?? [];
  // ours preloads Inter's Latin file, as the app's root layout does (next/font)
  const font = arm === "ours" ? fs.readdirSync(dir).filter((f) => f.startsWith("inter-latin-wght-normal")) : [];
  const head = [
    ...css.map((c) => `<link rel="stylesheet" href="${c}">`),
    ...chunks.map((c) => `<link rel="modulepreload" href="/${c}">`),
    ...font.map((f) => `<link rel="preload" href="/${f}" as="font" type="font/woff2" crossorigin>`),
  ].join("");
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>B3 ${arm} ${n}</title>${head}</head>` +
    `<body class="min-h-dvh font-sans" style="margin:0"><div id="root"></div><script>window.__B3__=${inline(data)}</script><script type="module" src="/${arm}.js"></script></body></html>`
  );
}

export async function startPageServer(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const arm = url.pathname.slice(1);
    if (arm === "ours" || arm === "peer") {
      const n = Number(url.searchParams.get("n") ?? 100);
      const k = `${arm}:${n}`;
      if (!pages.has(k)) pages.set(k, pageHtml(dir, arm, n));
      return void res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
        .end(pages.get(k));
    }
    const file = path.join(dir, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(dir) || !fs.existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, {
      "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
      "cache-control": "no-store",
    });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
