import "server-only";
import { getWorkflowVersion, listWorkflows, listWorkflowVersions } from "@/lib/db/workflows";
import { isTerminalRunStatus, type RunStatus } from "@/lib/engine/events";
import { getRun, startRun } from "@/lib/runs/service";
import type { Field } from "@/lib/workflow/schema";
import { waitForRunEnd } from "@/lib/runs/wait";

/**
 * The owner's workflows as MCP tools ("the tool box"): each workflow with a SAVED version is one tool
 * `run_workflow_<name>` whose arguments are the workflow's inputs; calling it starts a run of that
 * saved version (drafts are never served) and waits for it to finish, answering its outputs.
 */
export interface WorkflowTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, unknown>; required: string[] };
  workflowId: string;
  version: number;
}

const PREFIX = "run_workflow_";

const slug = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40) || "workflow";

function fieldSchema(f: Field): Record<string, unknown> {
  const description = f.description ? { description: f.description } : {};
  if (f.type === "number") return { type: "number", ...description };
  if (f.type === "boolean") return { type: "boolean", ...description };
  if (f.type === "json") return { ...description };
  return { type: "string", ...description };
}

/** The owner's saved workflows as tools (latest saved version each); names are unique per owner. */
export async function listWorkflowTools(workspaceId: string): Promise<WorkflowTool[]> {
  const out: WorkflowTool[] = [];
  const taken = new Set<string>();
  for (const wf of await listWorkflows(workspaceId)) {
    if (wf.versionCount === 0) continue;
    const latest = (await listWorkflowVersions(workspaceId, wf.id))?.[0];
    const version = latest ? await getWorkflowVersion(workspaceId, latest.id) : null;
    if (!version) continue;
    let name = `${PREFIX}${slug(wf.name)}`;
    if (taken.has(name)) name = `${name}_${wf.id.slice(-6).toLowerCase()}`;
    taken.add(name);
    const inputs = version.document.inputs;
    out.push({
      name,
      workflowId: wf.id,
      version: version.version,
      description: `Runs the Weft workflow "${wf.name}" (v${version.version})${wf.description ? `: ${wf.description}` : ""}. Answers the run's outputs.`,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(inputs.map((f) => [f.key, fieldSchema(f)])),
        required: inputs.filter((f) => f.required).map((f) => f.key),
      },
    });
  }
  return out;
}

export const isWorkflowToolName = (name: string): boolean => name.startsWith(PREFIX);

/** Outcome of a workflow tool call: the finished run's status and outputs (or why it did not succeed). */
export type WorkflowCallResult =
  { ok: true; runId: string; outputs: unknown } | { ok: false; runId?: string; error: string };

/**
 * Runs the workflow behind `name` with `args` as inputs and waits (lib/runs/wait.ts: woken by the
 * run's wake-ups, reading PostgreSQL, the source of truth) until the run is terminal, `timeoutMs` passes (the run keeps going; its id is returned) or
 * `signal` aborts. A worker must be running. Null when no saved workflow is served under `name`.
 */
export async function callWorkflowTool(
  workspaceId: string,
  name: string,
  args: Record<string, unknown>,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<WorkflowCallResult | null> {
  const tool = (await listWorkflowTools(workspaceId)).find((t) => t.name === name);
  if (!tool) return null;
  let runId: string;
  try {
    runId = (
      await startRun(
        workspaceId,
        tool.workflowId,
        { inputs: args, version: tool.version },
        { trigger: "mcp", label: name },
      )
    ).run.id;
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  await waitForRunEnd(runId, { timeoutMs: opts.timeoutMs ?? 300_000, ...(opts.signal ? { signal: opts.signal } : {}) });
  const run = await getRun(workspaceId, runId);
  const status = run.status as RunStatus;
  if (isTerminalRunStatus(status)) {
    return status === "succeeded"
      ? { ok: true, runId, outputs: run.outputs }
      : { ok: false, runId, error: `Run ${runId} ended ${status}${run.reason ? `: ${run.reason}` : ""}` };
  }
  if (status === "waiting")
    return {
      ok: false,
      runId,
      error: `Run ${runId} waits for a human review; answer it at /runs/${runId} (or POST /api/runs/${runId}/answer).`,
    };
  if (opts.signal?.aborted) return { ok: false, runId, error: `Stopped waiting for run ${runId} (it keeps running).` };
  return { ok: false, runId, error: `Run ${runId} is still ${status}; it keeps running (see /runs/${runId}).` };
}
