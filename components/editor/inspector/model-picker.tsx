"use client";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import type { ModelRef } from "@/lib/workflow/schema";
import { useModelChoices } from "../model-choices-context";

/** What the picker lists for one provider: its models, or why they could not be listed. */
type Listing =
  { state: "loading" } | { state: "ok"; models: string[]; defaultModel: string } | { state: "error"; message: string };

/** GET /api/providers/<id|default>/models (kept 10 minutes by the server; `refresh` asks the provider again). */
async function fetchModels(provider: string | undefined, refresh: boolean): Promise<Listing> {
  const id = encodeURIComponent(provider ?? "default");
  try {
    const res = await fetch(`/api/providers/${id}/models${refresh ? "?refresh=1" : ""}`);
    const body = (await res.json().catch(() => null)) as {
      models?: string[];
      defaultModel?: string;
      error?: { message?: string };
    } | null;
    if (res.ok && body?.models) return { state: "ok", models: body.models, defaultModel: body.defaultModel ?? "" };
    return { state: "error", message: body?.error?.message ?? `The models could not be listed (HTTP ${res.status}).` };
  } catch {
    return { state: "error", message: "The models could not be listed; check the connection." };
  }
}

/**
 * A node's model: which of the user's providers (or the default chain) and which of its models,
 * listed from the provider's /v1/models with a refresh; any name may still be typed (a provider
 * may serve models it does not list). Without providers in context (read-only views) it is a plain
 * name field. Commits `undefined` when nothing is chosen: the node then uses `fallback`.
 */
export function ModelPicker({
  value,
  onChange,
  fallback,
  testId,
}: {
  value: ModelRef | undefined;
  onChange: (ref: ModelRef | undefined) => void;
  /** What an empty choice means, e.g. "workflow default". */
  fallback: string;
  testId: string;
}) {
  const providers = useModelChoices();
  const listId = useId();
  const [listing, setListing] = useState<Listing>({ state: "loading" });
  const [draft, setDraft] = useState(value?.model ?? "");
  const [seen, setSeen] = useState(value?.model ?? "");
  if (seen !== (value?.model ?? "")) {
    setSeen(value?.model ?? "");
    setDraft(value?.model ?? "");
  }
  const provider = value?.provider;
  useEffect(() => {
    if (!providers) return;
    let live = true;
    setListing({ state: "loading" });
    void fetchModels(provider, false).then((l) => live && setListing(l));
    return () => {
      live = false;
    };
  }, [provider, providers]);

  const commitModel = (model: string) => {
    const name = model.trim();
    if (name === (value?.model ?? "")) return;
    if (name) return onChange({ ...value, model: name });
    // a provider keeps a model: its own default
    const own = providers?.find((x) => x.name === provider || x.id === provider)?.defaultModel;
    onChange(provider ? { ...value, model: own || value?.model || "" } : undefined);
  };
  const chooseProvider = (p: string) => {
    const chosen = providers?.find((x) => x.name === p);
    if (!p) onChange(value?.model ? { ...value, provider: undefined } : undefined);
    else onChange({ ...value, provider: p, model: value?.model || chosen?.defaultModel || "" });
  };
  const placeholder =
    listing.state === "ok" && listing.defaultModel ? `${fallback} (${listing.defaultModel})` : fallback;

  return (
    <div className="grid gap-1.5" data-testid={testId}>
      {providers && (
        <Select
          value={provider ?? ""}
          className="h-8 text-xs"
          aria-label="Provider"
          data-testid={`${testId}-provider`}
          onChange={(e) => chooseProvider(e.target.value)}
        >
          <option value="">Default provider</option>
          {providers.map((p) => (
            <option key={p.id} value={p.name}>
              {p.name}
            </option>
          ))}
          {provider && !providers.some((p) => p.name === provider || p.id === provider) && (
            <option value={provider}>{provider} (missing)</option>
          )}
        </Select>
      )}
      <div className="flex gap-1.5">
        <Input
          value={draft}
          list={providers ? listId : undefined}
          placeholder={placeholder}
          aria-label="Model"
          data-testid={`${testId}-model`}
          className="h-8 text-xs"
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => commitModel(draft)}
          onKeyDown={(e) => e.key === "Enter" && commitModel(draft)}
        />
        {providers && (
          <Button
            size="sm"
            variant="ghost"
            aria-label="Refresh the model list"
            title="Ask the provider for its models again"
            data-testid={`${testId}-refresh`}
            onClick={() => {
              setListing({ state: "loading" });
              void fetchModels(provider, true).then(setListing);
            }}
          >
            ↻
          </Button>
        )}
      </div>
      {providers && listing.state === "ok" && (
        <datalist id={listId}>
          {listing.models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      )}
      {providers && listing.state === "error" && (
        <p className="text-xs text-danger" data-testid={`${testId}-error`}>
          {listing.message}
        </p>
      )}
      {providers && listing.state === "ok" && (
        <p className="text-xs text-muted" data-testid={`${testId}-count`}>
          {listing.models.length} model{listing.models.length === 1 ? "" : "s"} listed
        </p>
      )}
    </div>
  );
}
