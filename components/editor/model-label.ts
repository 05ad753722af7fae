import type { ModelRef } from "@/lib/workflow/schema";

/** The UI name of the project's scripted OpenAI-compatible server (tests and the offline demo). */
export const SCRIPTED_MODEL_LABEL = "Scripted demo model";

/** Whether a model reference points at the scripted demo server (provider or model named "scripted…"). */
export function isScriptedModel(provider: string | undefined, model: string | undefined): boolean {
  return [provider, model].some((s) => s !== undefined && /^scripted/i.test(s));
}

/**
 * What a canvas node prints for a model: "Scripted demo model" for the scripted server, else the
 * model name (the provider is the inspector's; a shared graph carries names only, and the run's
 * dashboard and share page must print the same). Undefined model → the workflow default, or "default model".
 */
export function modelLabel(ref: Pick<ModelRef, "model" | "provider"> | undefined, fallback?: string): string {
  if (!ref) return fallback ? modelLabel({ model: fallback }) : "default model";
  return isScriptedModel(ref.provider, ref.model) ? SCRIPTED_MODEL_LABEL : ref.model;
}
