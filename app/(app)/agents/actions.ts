"use server";
import { revalidatePath } from "next/cache";
import * as z from "zod";
import type { AgentFormResult } from "@/components/agents/types";
import { requireAccess } from "@/lib/auth/access";
import { createAgent, deleteAgent, duplicateAgent, updateAgent } from "@/lib/db/agents";
import { listProviders } from "@/lib/db/providers";
import { createLogger } from "@/lib/logger";
import { parseAgentForm } from "./form";

const log = createLogger({ component: "agents-actions" });
const idSchema = z.string().min(1).max(100);

function changed() {
  revalidatePath("/agents");
}

/** Creates a saved agent, or updates the one named by the form's `id` (owner-scoped). */
export async function saveAgentAction(_prev: AgentFormResult, form: FormData): Promise<AgentFormResult> {
  const access = await requireAccess("edit");
  const rawId = form.get("id");
  const id = typeof rawId === "string" && rawId ? idSchema.safeParse(rawId) : null;
  if (id && !id.success) return { status: "error", message: "Unknown agent." };
  const providers = await listProviders(access.workspaceId);
  const parsed = parseAgentForm(form, providers);
  if (!parsed.ok) return { status: "error", message: "Check the highlighted fields.", fieldErrors: parsed.fieldErrors };
  try {
    if (id) {
      const updated = await updateAgent(access.workspaceId, id.data, parsed.input);
      if (!updated) return { status: "error", message: "This agent no longer exists." };
      changed();
      return { status: "ok", message: `Saved “${updated.name}”.`, id: updated.id };
    }
    const created = await createAgent(access.workspaceId, parsed.input);
    changed();
    return { status: "ok", message: `Created “${created.name}”.`, id: created.id };
  } catch (err) {
    log.error("saving an agent failed", { error: err instanceof Error ? err.message : String(err) });
    return { status: "error", message: "The agent could not be saved. Try again." };
  }
}

/** Copies one of the user's agents as "<name> (copy)". */
export async function duplicateAgentAction(id: string): Promise<AgentFormResult> {
  const access = await requireAccess("edit");
  const parsed = idSchema.safeParse(id);
  const copy = parsed.success ? await duplicateAgent(access.workspaceId, parsed.data) : null;
  if (!copy) return { status: "error", message: "This agent no longer exists." };
  changed();
  return { status: "ok", message: `Created “${copy.name}”.`, id: copy.id };
}

/** Deletes one of the user's agents (workflows keep their own copy of its fields). */
export async function deleteAgentAction(id: string): Promise<AgentFormResult> {
  const access = await requireAccess("edit");
  const parsed = idSchema.safeParse(id);
  const removed = parsed.success && (await deleteAgent(access.workspaceId, parsed.data));
  if (!removed) return { status: "error", message: "This agent no longer exists." };
  changed();
  return { status: "ok", message: "Agent deleted." };
}
