import type { Metadata } from "next";
import { ToolRegistry } from "@/components/tools/tool-registry";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { approveToolVersionAction, deleteToolAction, rerunToolTestsAction, revokeToolVersionAction } from "./actions";
import { loadToolViews } from "./data";

export const metadata: Metadata = { title: "Tools" };
export const dynamic = "force-dynamic";

/** The user's tool registry: built-ins, created tools (code, hash, tests, approval) and MCP servers' tools. */
export default async function ToolsPage() {
  const access = await requireAccess("read", "/tools");
  const tools = await loadToolViews(access.workspaceId);
  return (
    <>
      <PageHeader
        title="Tools"
        description="What your agents can call. Created tools and MCP servers run only at a version you approved, by the hash of its exact code."
      />
      <ToolRegistry
        tools={tools}
        actions={{
          approve: approveToolVersionAction,
          revoke: revokeToolVersionAction,
          remove: deleteToolAction,
          rerunTests: rerunToolTestsAction,
        }}
      />
    </>
  );
}
