/**
 * Idempotent seed run by `npm run up`: the demo account (demo@weft.local / weft-demo-password) with
 * one workflow per pattern template and a few saved agents (lib/db/demo-seed.ts), so the offline demo
 * has something to open and run at once. Re-running changes nothing that exists.
 */
import { disconnectDb } from "@/lib/db/client";
import { DEMO_EMAIL, seedDemoAccount } from "@/lib/db/demo-seed";
import { logger } from "@/lib/logger";

seedDemoAccount()
  .then(async ({ workflowsCreated, agentsCreated }) => {
    logger.info("seed done", { user: DEMO_EMAIL, workflowsCreated, agentsCreated });
    await disconnectDb();
  })
  .catch(async (err) => {
    logger.error("seed failed", { err });
    await disconnectDb();
    process.exit(1);
  });
