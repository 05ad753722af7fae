/** A saved agent as the library page shows and edits it (plain JSON: crosses the server/client boundary). */
export interface AgentRow {
  id: string;
  name: string;
  description: string;
  instructions: string;
  model: { provider?: string; model: string; temperature?: number } | null;
  tools: { name: string }[];
  updatedAt: string;
}

/** A model provider the user configured (for the "default model" choice). */
export interface ProviderOption {
  id: string;
  name: string;
  defaultModel: string;
}

/** A tool the agent may be given: name, one line, and where it comes from. */
export interface ToolOption {
  name: string;
  description: string;
  kind: "builtin" | "code" | "mcp";
}

/** Result of a library form action; field errors map form field names to messages. */
export type AgentFormResult =
  | { status: "idle" }
  | { status: "ok"; message: string; id?: string }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string | undefined> };

export type SaveAgentAction = (prev: AgentFormResult, form: FormData) => Promise<AgentFormResult>;
export type AgentIdAction = (id: string) => Promise<AgentFormResult>;

/** The select value encoding the model choice: "" = default, "scripted", or "provider:<id>". */
export function modelChoiceOf(model: AgentRow["model"], providers: readonly ProviderOption[]): string {
  if (!model) return "";
  if (model.provider) {
    const p = providers.find((x) => x.id === model.provider || x.name === model.provider);
    return p ? `provider:${p.id}` : "";
  }
  return model.model.startsWith("scripted") ? "scripted" : "";
}

/** How the library lists an agent's model. */
export function modelText(model: AgentRow["model"], providers: readonly ProviderOption[]): string {
  if (!model) return "Workflow default";
  if (model.provider) {
    const p = providers.find((x) => x.id === model.provider || x.name === model.provider);
    return `${p?.name ?? model.provider} · ${model.model}`;
  }
  return model.model.startsWith("scripted") ? "Scripted demo model" : model.model;
}
