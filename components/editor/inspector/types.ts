import type { AgentSpec, Edge, Workflow } from "@/lib/workflow/schema";

/** What inspector forms may do; each call is one undoable edit of the document. */
export type InspectorActions = {
  updateNode: (id: string, patch: Record<string, unknown>) => void;
  updateEdge: (id: string, patch: Partial<Edge>) => void;
  updateWorkflow: (patch: Partial<Omit<Workflow, "nodes" | "edges">>) => void;
  upsertAgent: (key: string, patch: Partial<AgentSpec>) => void;
  /** Creates an empty inline agent spec and returns its key. */
  newAgentKey: () => string;
};
