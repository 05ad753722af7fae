import type { Metadata } from "next";
import { AgentLibrary } from "@/components/agents/agent-library";
import type { AgentRow, ToolOption } from "@/components/agents/types";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { listAgents } from "@/lib/db/agents";
import { listProviders } from "@/lib/db/providers";
import { listRunnableTools } from "@/lib/tools/catalog";
import { deleteAgentAction, duplicateAgentAction, saveAgentAction } from "./actions";

export const metadata: Metadata = { title: "Agents" };

/** The agent library: saved agents (instructions, default model, tools) reused from the editor's palette and the designer. */
export default async function AgentsPage() {
  const access = await requireAccess("read", "/agents");
  const [agents, providers, tools] = await Promise.all([
    listAgents(access.workspaceId),
    listProviders(access.workspaceId),
    listRunnableTools(access.workspaceId, { mcp: { waitMs: 5_000 } }),
  ]);
  const rows: AgentRow[] = agents.map((a) => ({
    id: a.id,
    name: a.name,
    description: a.description,
    instructions: a.instructions,
    model: a.model,
    tools: a.tools.map((t) => ({ name: t.name })),
    updatedAt: a.updatedAt.toISOString(),
  }));
  const toolOptions: ToolOption[] = tools.map((t) => ({
    name: t.descriptor.name,
    description: t.descriptor.description,
    kind: t.kind,
  }));
  return (
    <>
      <PageHeader
        title="Agents"
        description="Reusable agents: instructions, default model and tools. Drag them from the editor's palette into any workflow."
      />
      <AgentLibrary
        agents={rows}
        providers={providers.map(({ id, name, defaultModel }) => ({ id, name, defaultModel }))}
        tools={toolOptions}
        save={saveAgentAction}
        duplicate={duplicateAgentAction}
        remove={deleteAgentAction}
      />
    </>
  );
}
