import "server-only";
import { TWO_ARTICLES_NAME, twoArticles } from "@/lib/workflow/subflow-example";
import { workflowTemplates } from "@/lib/workflow/templates";
import { createAgent, listAgents, type SavedAgentInput } from "./agents";
import { createUser, findUserByEmail } from "./users";
import { createWorkflow, listWorkflows, saveWorkflowVersion } from "./workflows";

export const DEMO_EMAIL = "demo@weft.local";
export const DEMO_PASSWORD = "weft-demo-password";

/**
 * The saved agents the demo account starts with, so its agent library and the editor's palette are
 * not empty: each does a kind of work the offline demo model answers (lib/llm/scripted/fixtures:
 * a web search then a summary, a draft, a knowledge-base lookup then an answer).
 */
export const DEMO_AGENTS: readonly SavedAgentInput[] = [
  {
    name: "Researcher",
    description: "Searches the web for a topic and summarises what it finds",
    instructions: "You research the task: search the web first, then summarise the findings with their sources.",
    tools: [{ name: "web_search" }],
  },
  {
    name: "Writer",
    description: "Writes a clear first draft from a brief",
    instructions: "You write a clear, well-structured first draft of what the task asks for.",
  },
  {
    name: "Critic",
    description: "Reviews a draft and says what to fix",
    instructions:
      "You review drafts strictly: say whether the draft is complete and well ordered, and exactly what to fix if it is not.",
  },
  {
    name: "Knowledge assistant",
    description: "Answers from your knowledge base, with sources",
    instructions: "Answer the task from the knowledge base: look it up first, then answer citing the sources you used.",
    tools: [{ name: "kb_query" }],
  },
];

/**
 * The demo account (DEMO_EMAIL / DEMO_PASSWORD) with one saved workflow per pattern template, the
 * subflow example (TWO_ARTICLES_NAME, running the seeded Article writer) and the DEMO_AGENTS, for
 * `npm run up`'s seed. Idempotent: what exists (by email, workflow name, agent
 * name) is left as it is, so re-running creates nothing and never overwrites the user's edits.
 */
export async function seedDemoAccount(): Promise<{ userId: string; workflowsCreated: number; agentsCreated: number }> {
  const user =
    (await findUserByEmail(DEMO_EMAIL)) ??
    (await createUser({ email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo" }));
  const workflows = new Map((await listWorkflows(user.id)).map((w) => [w.name, w.id]));
  let workflowsCreated = 0;
  for (const template of workflowTemplates) {
    if (workflows.has(template.workflow.name)) continue;
    const wf = await createWorkflow(user.id, template.workflow);
    await saveWorkflowVersion(user.id, wf.id, "Seeded from template");
    workflows.set(template.workflow.name, wf.id);
    workflowsCreated++;
  }
  const articleWriter = workflows.get("Article writer");
  if (articleWriter && !workflows.has(TWO_ARTICLES_NAME)) {
    const wf = await createWorkflow(user.id, twoArticles(articleWriter));
    await saveWorkflowVersion(user.id, wf.id, "Seeded: the subflow example");
    workflowsCreated++;
  }
  const agents = new Set((await listAgents(user.id)).map((a) => a.name));
  let agentsCreated = 0;
  for (const agent of DEMO_AGENTS) {
    if (agents.has(agent.name)) continue;
    await createAgent(user.id, agent);
    agentsCreated++;
  }
  return { userId: user.id, workflowsCreated, agentsCreated };
}
