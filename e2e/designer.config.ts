import path from "node:path";
import { defineConfig } from "@playwright/test";
import base, { baseURL } from "../playwright.config";

/**
 * e2e/designer.spec.ts with the standard config, except that the web server reuses the shared e2e
 * build (e2e/.tmp/next, written only by runs holding /tmp/weft-e2e.lock) when it is newer than every
 * designer source file — a production build takes over 15 minutes on the loaded shared machine.
 * Run under the lock: flock /tmp/weft-e2e.lock env CI=true npx playwright test -c e2e/designer.config.ts
 */
const root = path.resolve(import.meta.dirname, "..");
const SOURCES =
  "components/designer app/api/designer 'app/(app)/workflows' components/editor/workflow-editor.tsx lib/designer";
const fresh = `test -f e2e/.tmp/next/BUILD_ID && [ -z "$(find ${SOURCES} -newer e2e/.tmp/next/BUILD_ID -name '*.ts*' | head -1)" ]`;
const [app, ...runtime] = Array.isArray(base.webServer) ? base.webServer : [];
if (!app) throw new Error("playwright.config.ts has no web server");

export default defineConfig({
  ...base,
  testDir: path.join(root, "e2e"),
  testMatch: "designer.spec.ts",
  outputDir: path.join(root, "test-results/designer"),
  webServer: [
    {
      ...app,
      cwd: root,
      command: `npx tsx e2e/prepare-db.ts && { ${fresh} && echo "reusing e2e/.tmp/next" || npx next build; } && npx next start -p ${new URL(baseURL).port}`,
    },
    ...runtime.map((s) => ({ ...s, cwd: root })),
  ],
});
