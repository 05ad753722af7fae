"use client";
import { useActionState, useState } from "react";
import { useDoneOnOk } from "@/components/ui/action-result";
import { ActionForm } from "@/components/ui/action-form";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import {
  type AgentFormResult,
  type AgentRow,
  type ProviderOption,
  type SaveAgentAction,
  type ToolOption,
  modelChoiceOf,
} from "./types";

const KIND_LABEL: Record<ToolOption["kind"], string> = { builtin: "Built-in", code: "Created", mcp: "MCP" };

/** Create/edit form of a saved agent: name, description, instructions, default model, tools. */
export function AgentForm({
  agent,
  providers,
  tools,
  action,
  onDone,
}: {
  agent?: AgentRow;
  providers: ProviderOption[];
  tools: ToolOption[];
  action: SaveAgentAction;
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<AgentFormResult, FormData>(action, { status: "idle" });
  const [choice, setChoice] = useState(() => modelChoiceOf(agent?.model ?? null, providers));
  const [modelName, setModelName] = useState(agent?.model?.model ?? "");
  useDoneOnOk(state, onDone);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  // Tools the agent already has but the registry no longer offers stay listed (so saving keeps them visible).
  const selected = new Set(agent?.tools.map((t) => t.name) ?? []);
  const options = [
    ...tools,
    ...[...selected]
      .filter((n) => !tools.some((t) => t.name === n))
      .map((name) => ({ name, description: "Not runnable now (unapproved or removed)", kind: "code" as const })),
  ];

  const onChoice = (value: string) => {
    setChoice(value);
    if (value.startsWith("provider:"))
      setModelName(providers.find((p) => `provider:${p.id}` === value)?.defaultModel ?? "");
    else if (value === "scripted") setModelName("scripted-demo");
    else setModelName("");
  };

  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate data-testid="agent-form">
      {agent && <input type="hidden" name="id" value={agent.id} />}
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="Name" error={errors.name}>
        <Input
          name="name"
          defaultValue={agent?.name}
          placeholder="Researcher"
          required
          autoFocus
          data-testid="agent-name"
        />
      </FormField>
      <FormField
        label="Description"
        error={errors.description}
        hint="One line: what this agent is for (the designer reads it)."
      >
        <Input
          name="description"
          defaultValue={agent?.description}
          placeholder="Finds and summarises sources"
          data-testid="agent-description"
        />
      </FormField>
      <FormField label="Instructions" error={errors.instructions}>
        <Textarea
          name="instructions"
          rows={6}
          defaultValue={agent?.instructions}
          placeholder="You are a careful researcher…"
          data-testid="agent-instructions"
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_6rem]">
        <FormField label="Default model" error={errors.modelChoice}>
          <Select
            name="modelChoice"
            value={choice}
            onChange={(e) => onChoice(e.target.value)}
            data-testid="agent-model"
          >
            <option value="">Workflow default</option>
            <option value="scripted">Scripted demo model</option>
            {providers.map((p) => (
              <option key={p.id} value={`provider:${p.id}`}>
                {p.name}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField
          label="Model name"
          error={errors.modelName}
          hint={choice === "" ? "Uses the workflow's model." : undefined}
        >
          <Input
            name="modelName"
            value={modelName}
            onChange={(e) => setModelName(e.target.value)}
            disabled={choice === ""}
            data-testid="agent-model-name"
          />
        </FormField>
        <FormField label="Temperature" error={errors.temperature}>
          <Input
            name="temperature"
            inputMode="decimal"
            defaultValue={agent?.model?.temperature ?? ""}
            placeholder="—"
            disabled={choice === ""}
          />
        </FormField>
      </div>
      <fieldset className="grid gap-1.5">
        <legend className="mb-1 text-sm font-medium">Tools</legend>
        {errors.tools && <p className="text-xs text-danger">{errors.tools}</p>}
        <div
          className="grid max-h-52 gap-1 overflow-y-auto rounded-md border border-border p-2"
          data-testid="agent-tools"
        >
          {options.length === 0 && <p className="text-sm text-muted">No tools available.</p>}
          {options.map((t) => (
            <label key={t.name} className="flex items-start gap-2 rounded px-1 py-1 text-sm hover:bg-surface-2">
              <input
                type="checkbox"
                name="tools"
                value={t.name}
                defaultChecked={selected.has(t.name)}
                className="mt-0.5"
              />
              <span className="min-w-0">
                <span className="font-mono text-xs">{t.name}</span>
                <span className="ml-2 text-xs text-muted">{KIND_LABEL[t.kind]}</span>
                {t.description && (
                  <span className="block truncate text-xs text-muted" title={t.description}>
                    {t.description}
                  </span>
                )}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <SubmitButton data-testid="agent-save">{agent ? "Save changes" : "Create agent"}</SubmitButton>
      </div>
    </ActionForm>
  );
}
