// Lint: TypeScript rules plus the import direction of docs/architecture.md.
// The arrows are enforced here so a wrong import fails CI (see test/import-direction.test.ts):
// `weft/rooms` checks lib/'s rooms against scripts/lint/rooms.mjs, keeps test code out of production
// code and workers/ out of everything but tests; the zones below keep packages and UI layers apart.
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { roomsRule } from "./scripts/lint/rooms-rule.mjs";

// What client code (components/) may import from lib/: the model (lib/workflow), the run event schema
// (lib/engine/events.ts, zod only), the run shapes and cost estimate the dashboards render
// (lib/run-views/dto.ts, cost.ts), the knowledge base's view types and the designer's client-safe parts.
const CLIENT_LIB =
  "^@/lib/(?!workflow(/|$)|engine/events$|events/live-frame$|run-views/(dto|cost|value-diff)$|roles$|kb/types$|designer(/|$)|evals/(dto|evaluator-spec|stats)$)";
const SERVER_PACKAGES = ["@prisma/*", "bullmq", "ioredis", "pg"];

/** One no-restricted-imports zone: files matching `files` may not import `patterns`. */
const APP = ["@/app/**", "**/app/**"];
const CLIENT = "components/ may import lib/workflow and client-safe helpers only (CLIENT_LIB in eslint.config.mjs).";
const PURE = "lib/workflow is pure: it may import zod and lib/workflow only.";

const zone = (files, patterns, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }] },
});

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "bench/.tmp/**",
      "e2e/.tmp/**",
      "public/**",
    ],
  },
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
      // zod's `z` export is the whole namespace, locales included (~250 KB in a client bundle); a
      // namespace import lets the bundler keep only what is used.
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: 'Import zod as `import * as z from "zod"`: the named `z` drags every locale into client bundles.',
        },
      ],
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
  zone(
    ["components/**", "e2e/**", "bench/**", "test/**", "scripts/**", "prisma/**"],
    APP,
    "Nothing imports app/: routes are leaves.",
  ),
  zone(
    ["lib/**"],
    [...APP, "@/components/**", "**/components/**"],
    "lib/ must not import components/ or app/ (UI depends on lib, never the reverse).",
  ),
  // lib/workflow is pure and isomorphic: zod and itself only.
  {
    files: ["lib/workflow/**"],
    ignores: ["lib/workflow/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(?!zod(/|$)|\\./|\\.\\./|@/lib/workflow/)", message: PURE },
            {
              regex:
                "^(\\.\\./)+(engine|db|llm|queue|events|tools|designer|runs|generated|crypto|auth|env|logger|errors)(/|$)",
              message: PURE,
            },
            { regex: "^(\\.\\./){3,}", message: PURE },
          ],
        },
      ],
    },
  },
  // The engine core talks to the world through injected ports, never directly to db/queue/redis/next.
  zone(
    ["lib/engine/**"],
    [
      ...APP,
      "@/components/**",
      "**/components/**",
      "@/lib/db",
      "@/lib/db/**",
      "@/lib/queue/**",
      "@/lib/generated/**",
      "@prisma/*",
      "bullmq",
      "ioredis",
      "pg",
      "next",
      "next/**",
      "react",
      "**/db/**",
    ],
    "lib/engine gets store/queue/model/tools/events as ports; real ones are wired in workers/engine-ports.ts.",
  ),
  // Components run in the browser: no server-only modules.
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: [...APP, ...SERVER_PACKAGES, "@/workers/**"], message: CLIENT },
            { regex: CLIENT_LIB, message: CLIENT },
          ],
        },
      ],
    },
  },
  // Rooms of lib/, test code and workers/ (scripts/lint/rooms.mjs).
  { plugins: { weft: { rules: { rooms: roomsRule } } }, rules: { "weft/rooms": "error" } },
  // Workers are plain Node: no Next, no React, no components.
  zone(
    ["workers/**"],
    [...APP, "next", "next/**", "react", "react-dom", "@/components/**", "**/components/**"],
    "workers/ import lib/* only, never next/* or components/*.",
  ),
);
