// Lint: TypeScript rules plus the import direction of docs/architecture.md.
// The arrows are enforced here so a wrong import fails CI (see test/import-direction.test.ts).
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

// lib/engine/events.ts is zod-only (the run event schema the browser parses), so it is the one engine
// module client code may import; lib/runs/dto.ts and lib/runs/cost.ts (the run shapes the dashboard
// renders and its cost estimate, no imports) are the lib/runs modules it may import.
const serverOnly = ["@/lib/db", "@/lib/db/**", "@/lib/engine", "@/lib/engine/**", "!@/lib/engine/events", "@/lib/queue", "@/lib/queue/**",
  "@/lib/llm", "@/lib/llm/**", "@/lib/events", "@/lib/events/**", "@/lib/generated/**", "@/lib/runs/**", "!@/lib/runs/dto", "!@/lib/runs/cost", "@/lib/schedules/**", "@/lib/webhooks/**", "@/lib/notifications/**",
  "@prisma/*", "bullmq", "ioredis", "pg"];

/** One no-restricted-imports zone: files matching `files` may not import `patterns`. */
const APP = ["@/app/**", "**/app/**"];
const CLIENT = "components/ may import lib/workflow and client-safe helpers only.";
const PURE = "lib/workflow is pure: it may import zod and lib/workflow only.";

const zone = (files, patterns, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }] },
});

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", "lib/generated/**", "next-env.d.ts", "test-results/**",
    "playwright-report/**", "bench/.tmp/**", "e2e/.tmp/**", "public/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-eval": "error",
      "no-new-func": "error",
    },
  },
  // test/db.ts's useTestDatabase() registers Vitest hooks; its name is not a React hook.
  { files: ["**/*.test.ts", "**/*.test.tsx"], rules: { "react-hooks/rules-of-hooks": "off" } },
  {
    files: ["lib/**/*.ts", "workers/**/*.ts"],
    ignores: ["**/*.test.ts", "lib/llm/scripted/cli.ts"],
    rules: { "no-console": "error" },
  },
  // Each file gets exactly one no-restricted-imports rule (flat config replaces, not merges, a rule),
  // so the specific zones below repeat the general ones. Order: general first.
  zone(["components/**", "e2e/**", "bench/**", "test/**", "scripts/**", "prisma/**"], APP, "Nothing imports app/: routes are leaves."),
  zone(["lib/**"], [...APP, "@/components/**", "**/components/**"],
    "lib/ must not import components/ or app/ (UI depends on lib, never the reverse)."),
  // lib/workflow is pure and isomorphic: zod and itself only.
  {
    files: ["lib/workflow/**"],
    ignores: ["lib/workflow/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { regex: "^(?!zod(/|$)|\\./|\\.\\./|@/lib/workflow/)", message: PURE },
        { regex: "^(\\.\\./)+(engine|db|llm|queue|events|tools|designer|runs|generated|crypto|auth|env|logger|errors)(/|$)", message: PURE },
        { regex: "^(\\.\\./){3,}", message: PURE },
      ] }],
    },
  },
  // The engine core talks to the world through injected ports, never directly to db/queue/redis/next.
  zone(["lib/engine/**"], [...APP, "@/components/**", "**/components/**", "@/lib/db", "@/lib/db/**", "@/lib/queue/**",
    "@/lib/generated/**", "@prisma/*", "bullmq", "ioredis", "pg", "next", "next/**", "react", "**/db/**"],
    "lib/engine gets store/queue/model/tools/events as ports; wire real ones in lib/runs or workers."),
  // Components run in the browser: no server-only modules.
  // Exception: lib/engine/events.ts is isomorphic (zod only), the run event schema the browser parses SSE frames with.
  {
    files: ["components/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [
      { group: [...APP, ...serverOnly.filter((p) => !p.startsWith("@/lib/engine"))], message: CLIENT },
      { regex: "^@/lib/engine(?!/events$)(/|$)", message: CLIENT },
    ] }] },
  },
  // Workers are plain Node: no Next, no React, no components.
  zone(["workers/**"], [...APP, "next", "next/**", "react", "react-dom", "@/components/**", "**/components/**"],
    "workers/ import lib/* only, never next/* or components/*."),
);
