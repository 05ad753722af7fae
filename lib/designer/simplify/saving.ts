import type { NodeOf, Workflow } from "@/lib/workflow/schema";
import type { Candidate } from "./rules";

/**
 * The expected saving of a merge, per run, before anything runs: the model calls a pass through the
 * merged nodes no longer makes, and the prompt tokens those calls no longer send (their agent's
 * instructions and task text, estimated like the scripted model: ceil(characters / 4)). What an
 * answer passed from one step to the next would have cost again is not in it (it depends on the
 * answer); the evaluation measures the real figures.
 */
export interface Saving {
  calls: number;
  tokens: number;
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

function callCost(wf: Workflow, id: string): number {
  const node = wf.nodes.find((n) => n.id === id) as NodeOf<"agent"> | undefined;
  if (!node) return 0;
  const agent = wf.agents.find((a) => a.key === node.agent);
  return tokensOf(`${agent?.name ?? ""}\n${agent?.instructions ?? ""}\n${node.task}`);
}

export function expectedSaving(wf: Workflow, c: Candidate): Saving {
  const removed = c.rule === "parallel" ? c.remove : [c.first];
  return { calls: removed.length, tokens: removed.reduce((sum, id) => sum + callCost(wf, id), 0) };
}
