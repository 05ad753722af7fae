import type { TokenUsage } from "../events";
import type { RunCommit, RunWrite, StepResultWrite } from "../ports";
import type { PlannerEvent, PlannerState, PlanResult } from "../planner";
import { storedState } from "./stored-state";

/**
 * Turns one planner answer into one atomic store commit: the step rows it starts, skips and
 * finishes, the run row (counters, terminal status) and the events, together (R7, R8). The run's
 * planner state is not set here: a batch of answers is merged into one commit, which stores the
 * batch's last state once (withStoredState), not every intermediate one.
 */
export function buildCommit(
  owner: string,
  expectedVersion: number,
  event: PlannerEvent,
  r: PlanResult,
  at: Date,
): RunCommit {
  const stepStarts = r.commands.flatMap((c) =>
    c.type === "start_step" || c.type === "adopt_step"
      ? [{ nodeId: c.nodeId, iteration: c.iteration, attempt: c.attempt, kind: c.kind, input: c.input, at }]
      : [],
  );
  const stepSkips = r.commands.flatMap((c) =>
    c.type === "skip_step" ? [{ nodeId: c.nodeId, iteration: c.iteration, kind: c.kind, at }] : [],
  );
  const stepResults: StepResultWrite[] = r.events.flatMap((e): StepResultWrite[] => {
    if (e.type === "input_requested") {
      // a human review's question: the row waits (output = the question) until an answer finishes it
      const attempt = r.state.nodes[e.nodeId]?.attempt ?? 1;
      const request = {
        prompt: e.prompt,
        choices: e.choices,
        fields: e.fields,
        ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
        ...(e.timeoutChoice !== undefined ? { timeoutChoice: e.timeoutChoice } : {}),
        ...(e.tool !== undefined ? { tool: e.tool } : {}),
      };
      return [
        {
          nodeId: e.nodeId,
          iteration: e.iteration,
          attempt,
          status: "waiting",
          output: { request },
          branch: null,
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: null,
          error: null,
          at,
        },
      ];
    }
    if (e.type === "subflow_started") {
      // a subflow's child run started: the row waits (output = what it waits for) until that run's end finishes it
      const attempt = r.state.nodes[e.nodeId]?.attempt ?? 1;
      const request = {
        kind: "subflow",
        runId: e.runId,
        workflowId: e.workflowId,
        workflowName: e.workflowName,
        ...(e.timeoutMs !== undefined ? { timeoutMs: e.timeoutMs } : {}),
      };
      return [
        {
          nodeId: e.nodeId,
          iteration: e.iteration,
          attempt,
          status: "waiting",
          output: { request },
          branch: null,
          promptTokens: 0,
          completionTokens: 0,
          latencyMs: null,
          error: null,
          at,
        },
      ];
    }
    if (e.type === "step_retrying") {
      // the try failed and waits for its retry: the row says so (error, usage) until the next try restarts it
      return [
        {
          nodeId: e.nodeId,
          iteration: e.iteration,
          attempt: e.attempt,
          status: "retrying",
          output: null,
          branch: null,
          promptTokens: e.promptTokens,
          completionTokens: e.completionTokens,
          latencyMs: e.latencyMs ?? null,
          error: e.error,
          at,
        },
      ];
    }
    if (e.type !== "step_finished" || e.status === "skipped") return [];
    // a map item's event names its attempt (its node id has no node state)
    const attempt = e.attempt ?? r.state.nodes[e.nodeId]?.attempt ?? 1;
    return [
      {
        nodeId: e.nodeId,
        iteration: e.iteration,
        attempt,
        status: e.status,
        output: e.output ?? null,
        branch: e.branch ?? null,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        latencyMs: e.latencyMs ?? null,
        error: e.error ?? null,
        at,
      },
    ];
  });
  const finish = r.commands.find((c) => c.type === "finish_run");
  // steps started: first tries and error-policy retries; a re-dispatch after a crash is the same step
  const fresh = r.commands.filter((c) => c.type === "start_step" && !c.redispatch).length;
  return {
    owner,
    expectedVersion,
    stepStarts,
    stepSkips,
    stepResults,
    run: {
      ...(fresh > 0 ? { addSteps: fresh } : {}),
      ...(event.type === "tokens_used" ? { addTokens: event.usage } : {}),
      ...(event.type === "run_started" ? { status: "running" as const, startedAt: at } : {}),
      ...(finish
        ? {
            status: finish.status,
            reason: finish.reason,
            finishedAt: at,
            ...(finish.outputs ? { outputs: finish.outputs } : {}),
          }
        : {}),
    },
    events: r.events,
  };
}

/** `commit` with the run's planner state as stored (stored-state.ts), when it writes the run row. */
export function withStoredState(commit: RunCommit, state: PlannerState | null): RunCommit {
  return commit.run && state ? { ...commit, run: { ...commit.run, plannerState: storedState(state) } } : commit;
}

/**
 * Merges consecutive commits of one batch into one (same owner and expected version): writes and
 * events concatenated in order, counters summed, the last run status/state wins.
 */
export function mergeCommits(commits: RunCommit[]): RunCommit {
  const [first, ...rest] = commits;
  if (!first) throw new Error("mergeCommits needs at least one commit");
  if (rest.length === 0) return first;
  const merged: RunCommit = {
    owner: first.owner,
    expectedVersion: first.expectedVersion,
    stepStarts: [],
    stepSkips: [],
    stepResults: [],
    events: [],
  };
  let run: RunWrite | undefined;
  for (const c of commits) {
    merged.stepStarts!.push(...(c.stepStarts ?? []));
    merged.stepSkips!.push(...(c.stepSkips ?? []));
    merged.stepResults!.push(...(c.stepResults ?? []));
    merged.events!.push(...(c.events ?? []));
    if (c.run) run = mergeRun(run, c.run);
  }
  return run ? { ...merged, run } : merged;
}

function mergeRun(a: RunWrite | undefined, b: RunWrite): RunWrite {
  if (!a) return { ...b };
  const sum = (x?: TokenUsage, y?: TokenUsage) =>
    x && y
      ? { promptTokens: x.promptTokens + y.promptTokens, completionTokens: x.completionTokens + y.completionTokens }
      : (x ?? y);
  const addTokens = sum(a.addTokens, b.addTokens);
  const addSteps = (a.addSteps ?? 0) + (b.addSteps ?? 0);
  return { ...a, ...b, ...(addTokens ? { addTokens } : {}), ...(addSteps ? { addSteps } : {}) };
}
