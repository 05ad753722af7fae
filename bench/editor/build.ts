/**
 * Bundles the two B3 pages with esbuild (production React, same @xyflow/react for both) and
 * compiles the app's Tailwind stylesheet for ours. Output: bench/.tmp/editor/. Identifiers are kept
 * (whitespace and syntax are minified) so the render counter can name React components.
 */
import fs from "node:fs";
import path from "node:path";
import { build, type Metafile, type Plugin } from "esbuild";

const root = path.resolve(import.meta.dirname, "../..");
export const OUT_DIR = path.join(root, "bench/.tmp/editor");

/** next/navigation and next/link → stubs; server-only code in the client bundle is an error. */
const stubs: Plugin = {
  name: "b3-stubs",
  setup(b) {
    const stub = path.join(import.meta.dirname, "client/stubs/next.tsx");
    b.onResolve({ filter: /^next\/(navigation|link)$/ }, () => ({ path: stub }));
    b.onResolve({ filter: /^server-only$/ }, (args) => ({
      errors: [{ text: `server-only module imported by ${args.importer}` }],
    }));
  },
};

async function tailwind(): Promise<string> {
  const { default: postcss } = await import("postcss");
  const { default: tw } = await import("@tailwindcss/postcss");
  const from = path.join(root, "app/globals.css");
  const result = await postcss([tw({ base: root })]).process(fs.readFileSync(from, "utf8"), { from });
  return result.css;
}

/**
 * Per entry, the chunks it imports statically (transitively): the page preloads them
 * (`<link rel="modulepreload">`), as a Next page lists every chunk of its route up front, so neither
 * arm waits to parse its entry before it fetches the shared React chunk.
 */
function staticChunks(meta: Metafile): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [file, o] of Object.entries(meta.outputs)) {
    if (!o.entryPoint) continue;
    const seen = new Set<string>();
    const visit = (f: string) => {
      for (const i of meta.outputs[f]?.imports ?? []) {
        if (i.kind !== "import-statement" || seen.has(i.path)) continue;
        seen.add(i.path);
        visit(i.path);
      }
    };
    visit(file);
    out[path.basename(file, ".js")] = [...seen].map((f) => path.basename(f));
  }
  return out;
}

/** Builds both bundles; returns the output directory. */
export async function buildPages(): Promise<string> {
  fs.rmSync(OUT_DIR, { recursive: true, force: true });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const result = await build({
    entryPoints: {
      ours: path.join(import.meta.dirname, "client/ours.tsx"),
      peer: path.join(import.meta.dirname, "client/peer.tsx"),
    },
    outdir: OUT_DIR,
    bundle: true,
    // Dynamic imports become their own chunks, as in the Next build (elkjs loads on the first layout).
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    jsx: "automatic",
    minifyWhitespace: true,
    minifySyntax: true,
    define: { "process.env.NODE_ENV": '"production"' },
    loader: { ".woff2": "file", ".woff": "file" },
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [stubs],
    metafile: true,
    logLevel: "error",
  });
  fs.writeFileSync(path.join(OUT_DIR, "preload.json"), JSON.stringify(staticChunks(result.metafile)));
  fs.writeFileSync(path.join(OUT_DIR, "tailwind.css"), await tailwind());
  return OUT_DIR;
}
