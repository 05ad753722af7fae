/**
 * Idempotent seed run by `npm run up`: a demo account (demo@weft.local / weft-demo-password) that owns
 * one workflow per pattern template, so the offline demo has something to open and run at once.
 * Re-running changes nothing that exists.
 */
import { disconnectDb } from "@/lib/db/client";
import { createUser, findUserByEmail } from "@/lib/db/users";
import { createWorkflow, listWorkflows, saveWorkflowVersion } from "@/lib/db/workflows";
import { logger } from "@/lib/logger";
import { workflowTemplates } from "@/lib/workflow/templates";

export const DEMO_EMAIL = "demo@weft.local";
export const DEMO_PASSWORD = "weft-demo-password";

async function main(): Promise<void> {
  const user =
    (await findUserByEmail(DEMO_EMAIL)) ?? (await createUser({ email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo" }));
  const existing = new Set((await listWorkflows(user.id)).map((w) => w.name));
  let created = 0;
  for (const template of workflowTemplates) {
    if (existing.has(template.workflow.name)) continue;
    const wf = await createWorkflow(user.id, template.workflow);
    await saveWorkflowVersion(user.id, wf.id, "Seeded from template");
    created++;
  }
  logger.info("seed done", { user: DEMO_EMAIL, workflowsCreated: created });
}

main()
  .then(() => disconnectDb())
  .catch(async (err) => {
    logger.error("seed failed", { err });
    await disconnectDb();
    process.exit(1);
  });
