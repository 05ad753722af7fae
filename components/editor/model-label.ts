import type { ModelRef } from "@/lib/workflow/schema";

/** The UI name of the project's scripted OpenAI-compatible server (tests and the offline demo). */
export const SCRIPTED_MODEL_LABEL = "Scripted demo model";

/** Whether a model reference points at the scripted demo server (provider or model named "scripted…"). */
export function isScriptedModel(provider: string | undefined, model: string | undefined): boolean {
  return [provider, model].some((s) => s !== undefined && /^scripted/i.test(s));
}

/**
 * What to print where a model is shown: "Scripted demo model" for the scripted server, else the
 * model name (with the provider when one is named). Undefined model → the workflow default, or "default".
 */
export function modelLabel(ref: ModelRef | undefined, fallback?: string): string {
  if (!ref) return fallback ? modelLabel({ model: fallback }) : "default model";
  if (isScriptedModel(ref.provider, ref.model)) return SCRIPTED_MODEL_LABEL;
  return ref.provider ? `${ref.model} · ${ref.provider}` : ref.model;
}
