import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { modelRefSchema, toolRefSchema, type AgentSpec } from "@/lib/workflow/schema";

/** A saved agent's editable fields (the agent library). Model: a workflow ModelRef or none (= default). */
export const savedAgentInputSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(120),
  description: z.string().max(2000).default(""),
  instructions: z.string().max(50_000).default(""),
  model: modelRefSchema.nullable().default(null),
  tools: z.array(toolRefSchema).max(50).default([]),
});
export type SavedAgentInput = z.input<typeof savedAgentInputSchema>;

/** A saved agent as pages and the designer see it. */
export interface SavedAgent {
  id: string;
  name: string;
  description: string;
  instructions: string;
  model: z.infer<typeof modelRefSchema> | null;
  tools: z.infer<typeof toolRefSchema>[];
  createdAt: Date;
  updatedAt: Date;
}

type Row = {
  id: string;
  name: string;
  description: string;
  instructions: string;
  model: unknown;
  tools: unknown;
  createdAt: Date;
  updatedAt: Date;
};

function toAgent(row: Row): SavedAgent {
  const model = modelRefSchema.safeParse(row.model);
  const tools = z.array(toolRefSchema).safeParse(row.tools);
  return { ...row, model: model.success ? model.data : null, tools: tools.success ? tools.data : [] };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** Creates a saved agent for the owner. */
export async function createAgent(workspaceId: string, input: SavedAgentInput): Promise<SavedAgent> {
  const d = savedAgentInputSchema.parse(input);
  return toAgent(
    await db().agent.create({ data: { workspaceId, ...d, model: json(d.model ?? {}), tools: json(d.tools) } }),
  );
}

/** The owner's saved agents, most recently edited first. */
export async function listAgents(workspaceId: string): Promise<SavedAgent[]> {
  return (await db().agent.findMany({ where: { workspaceId }, orderBy: { updatedAt: "desc" } })).map(toAgent);
}

/** One of the owner's agents (null when absent or someone else's). */
export async function getAgent(workspaceId: string, id: string): Promise<SavedAgent | null> {
  const row = await db().agent.findFirst({ where: { id, workspaceId } });
  return row ? toAgent(row) : null;
}

/** Replaces the editable fields of one of the owner's agents; null when not theirs. */
export async function updateAgent(workspaceId: string, id: string, input: SavedAgentInput): Promise<SavedAgent | null> {
  const d = savedAgentInputSchema.parse(input);
  const { count } = await db().agent.updateMany({
    where: { id, workspaceId },
    data: { ...d, model: json(d.model ?? {}), tools: json(d.tools) },
  });
  return count === 1 ? getAgent(workspaceId, id) : null;
}

/** Copies one of the owner's agents as "<name> (copy)"; null when not theirs. */
export async function duplicateAgent(workspaceId: string, id: string): Promise<SavedAgent | null> {
  const a = await getAgent(workspaceId, id);
  if (!a) return null;
  return createAgent(workspaceId, {
    name: `${a.name} (copy)`.slice(0, 120),
    description: a.description,
    instructions: a.instructions,
    model: a.model,
    tools: a.tools,
  });
}

/** Deletes one of the owner's agents; false when not theirs. */
export async function deleteAgent(workspaceId: string, id: string): Promise<boolean> {
  const { count } = await db().agent.deleteMany({ where: { id, workspaceId } });
  return count === 1;
}

/** A workflow AgentSpec referencing a saved agent (what the editor palette drops into a workflow). */
export function agentSpecFrom(agent: SavedAgent, key: string): AgentSpec {
  return {
    key,
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    ...(agent.model ? { model: agent.model } : {}),
    tools: agent.tools,
    savedAgentId: agent.id,
  };
}
