import * as z from "zod";
import type { SavedAgentInput } from "@/lib/db/agents";
import { SCRIPTED_MODEL } from "@/lib/llm/models";

/** A provider the user owns, as the form parser needs it. */
type Provider = { id: string; defaultModel: string };

const formSchema = z.object({
  name: z.string().trim().min(1, "Enter a name").max(120, "At most 120 characters"),
  description: z.string().trim().max(2000, "At most 2000 characters").default(""),
  instructions: z.string().max(50_000, "At most 50,000 characters").default(""),
  modelChoice: z.string().max(200).default(""),
  modelName: z.string().trim().max(200, "At most 200 characters").default(""),
  temperature: z
    .string()
    .trim()
    .default("")
    .refine((t) => t === "" || (Number.isFinite(Number(t)) && Number(t) >= 0 && Number(t) <= 2), "A number from 0 to 2")
    .transform((t) => (t === "" ? undefined : Number(t))),
  tools: z.array(z.string().trim().min(1).max(200)).max(50, "At most 50 tools").default([]),
});

export type ParsedAgentForm = { ok: true; input: SavedAgentInput } | { ok: false; fieldErrors: Record<string, string> };

/**
 * Turns the library form into a saved agent's fields. The model choice is "" (the workflow's or the
 * user's default), "scripted" (the scripted demo model) or "provider:<id>" (one of `providers`; an
 * empty model name means that provider's default model). Unknown providers are a field error.
 */
export function parseAgentForm(form: FormData, providers: readonly Provider[]): ParsedAgentForm {
  const raw = {
    name: form.get("name") ?? "",
    description: form.get("description") ?? "",
    instructions: form.get("instructions") ?? "",
    modelChoice: form.get("modelChoice") ?? "",
    modelName: form.get("modelName") ?? "",
    temperature: form.get("temperature") ?? "",
    tools: form.getAll("tools"),
  };
  const parsed = formSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "form");
      fieldErrors[key] ??= issue.message;
    }
    return { ok: false, fieldErrors };
  }
  const d = parsed.data;
  const temperature = d.temperature === undefined ? {} : { temperature: d.temperature };
  let model: SavedAgentInput["model"] = null;
  if (d.modelChoice === "scripted") {
    model = { model: d.modelName && d.modelName.startsWith("scripted") ? d.modelName : SCRIPTED_MODEL, ...temperature };
  } else if (d.modelChoice.startsWith("provider:")) {
    const provider = providers.find((p) => p.id === d.modelChoice.slice("provider:".length));
    if (!provider)
      return { ok: false, fieldErrors: { modelChoice: "That provider no longer exists; pick another model." } };
    model = { provider: provider.id, model: d.modelName || provider.defaultModel, ...temperature };
  } else if (d.modelChoice !== "") {
    return { ok: false, fieldErrors: { modelChoice: "Pick a model from the list." } };
  }
  const tools = [...new Set(d.tools)].map((name) => ({ name }));
  return { ok: true, input: { name: d.name, description: d.description, instructions: d.instructions, model, tools } };
}
