import { NO_LIVE_TEXT } from "../driver/live-text";
import type { NodeKind, Workflow } from "@/lib/workflow/schema";
import type { TemplateContext } from "@/lib/workflow/template";
import type { RunEvent, TokenUsage } from "../events";
import type { StepContext } from "../executors/types";
import { FakeTools, ScriptedModel, silentLogger } from "./fakes";

/** A StepContext for calling one executor directly, recording what it emits and reports. */
export function stepContext<K extends NodeKind>(
  workflow: Workflow,
  nodeId: string,
  parts: {
    model?: ScriptedModel;
    tools?: FakeTools;
    data?: TemplateContext;
    iteration?: number;
    retry?: number;
    input?: StepContext["input"];
    signal?: AbortSignal;
  },
) {
  const node = workflow.nodes.find((n) => n.id === nodeId);
  if (!node) throw new Error(`no node ${nodeId}`);
  const emitted: RunEvent[] = [];
  const usages: { model: string; usage: TokenUsage }[] = [];
  const ctx = {
    runId: "run-1",
    workflow,
    node,
    iteration: parts.iteration ?? 1,
    attempt: 1,
    retry: parts.retry ?? 0,
    input: parts.input ?? { via: [] },
    data: parts.data ?? {},
    signal: parts.signal ?? new AbortController().signal,
    model: parts.model ?? new ScriptedModel(() => ({ content: "" })),
    tools: parts.tools ?? new FakeTools({}),
    logger: silentLogger,
    live: NO_LIVE_TEXT,
    emit: (e: RunEvent) => void emitted.push(e),
    reportUsage: (model: string, usage: TokenUsage) => void usages.push({ model, usage }),
  } as unknown as StepContext<K>;
  return { ctx, emitted, usages };
}
