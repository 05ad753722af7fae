import { InfoIcon } from "@/components/ui/icons";
import { SCRIPTED_MODEL_LABEL } from "./types";

/** Shown while no provider is configured: everything runs on the built-in scripted model, offline. */
export function DemoModelNotice() {
  return (
    <div role="note" className="flex gap-3 rounded-lg border border-primary/25 bg-primary/5 p-4 text-sm">
      <InfoIcon className="mt-0.5 shrink-0 text-primary" />
      <div>
        <p className="font-medium">Using the built-in “{SCRIPTED_MODEL_LABEL}”</p>
        <p className="mt-0.5 text-muted">
          No model provider is configured, so workflows and the designer answer from Weft&apos;s scripted,
          OpenAI-compatible demo server — fully offline and deterministic. Add a provider (OpenAI, Ollama, vLLM, LM
          Studio, OpenRouter…) to use a real model.
        </p>
      </div>
    </div>
  );
}
