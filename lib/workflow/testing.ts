import type { z } from "zod";
import { workflowSchema, type agentSpecSchema, type Edge, type Workflow, type WorkflowInput } from "./schema";

/**
 * Small builders for tests (here and in the engine/editor): terse documents that still go through
 * the real schema, so defaults are exactly what production code sees.
 */

/** Parses a partial document with the workflow schema (defaults applied). */
export function doc(input: WorkflowInput): Workflow {
  return workflowSchema.parse(input);
}

/** A forward edge `source:handle → target` with id `${source}-${handle}-${target}` unless given. */
export function fwd(source: string, handle: string, target: string, id = `${source}-${handle}-${target}`): Edge {
  return { id, source, sourceHandle: handle, target, kind: "forward" };
}

/** A loop edge with a cap (default 3) and onExhausted (default "continue"). */
export function loop(
  source: string,
  handle: string,
  target: string,
  maxIterations = 3,
  onExhausted: "continue" | "abort" = "continue",
): Edge {
  return {
    id: `${source}-${handle}-${target}`,
    source,
    sourceHandle: handle,
    target,
    kind: "loop",
    maxIterations,
    onExhausted,
  };
}

/** An inline agent spec with a generated name. */
export function agent(
  key: string,
  extra: Partial<z.input<typeof agentSpecSchema>> = {},
): z.input<typeof agentSpecSchema> {
  return { key, name: key, instructions: `You are ${key}.`, ...extra };
}
