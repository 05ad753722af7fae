import type { NextConfig } from "next";

/** Security headers on every response; share pages add their own stricter set in their route. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

/** API answers (JSON, event streams): nothing may load from them or frame them. Pages get theirs from proxy.ts. */
const apiHeaders = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];

/** Share pages and share APIs: the token must not leak through Referer, search engines or caches (W2). */
const shareHeaders = [
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Robots-Tag", value: "noindex, nofollow" },
  { key: "Cache-Control", value: "no-store" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // e2e builds into their own directory (NEXT_DIST_DIR, set by playwright.config.ts) so a concurrent
  // `next build` elsewhere in the shared tree cannot replace the build under test.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `npm run typecheck` is the type gate; e2e builds set WEFT_SKIP_BUILD_TYPECHECK=1 so a teammate's
  // unfinished file elsewhere in the tree does not block the browser tests (and the build runs faster).
  typescript: { ignoreBuildErrors: process.env.WEFT_SKIP_BUILD_TYPECHECK === "1" },
  // proxy.ts refuses server action payloads over WEFT_JSON_MAX_BYTES with a 413 first; Next's own
  // limit (which would answer 500) is kept at the same size so it never decides before the guard.
  experimental: { serverActions: { bodySizeLimit: Number(process.env.WEFT_JSON_MAX_BYTES) || 1_048_576 } },
  serverExternalPackages: ["@node-rs/argon2", "bullmq", "ioredis", "pg", "@prisma/adapter-pg"],
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/api/:path*", headers: apiHeaders },
      // Share pages and their APIs (a token in the URL): no referrer, no indexing, no caching. Listed
      // after the global rule, which they override (the last matching rule wins).
      { source: "/share/:path*", headers: shareHeaders },
      // (not Cache-Control: the share stream's own "no-store, no-transform" must stay)
      { source: "/api/share/:path*", headers: shareHeaders.filter((h) => h.key !== "Cache-Control") },
    ];
  },
};

export default nextConfig;
