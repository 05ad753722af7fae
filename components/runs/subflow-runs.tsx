import Link from "next/link";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import type { SubflowTargets } from "@/components/editor/subflow-targets";
import type { StepState, SubflowRunView } from "./run-fold";
import { StatusBadge } from "@/components/terms/status-badge";

/**
 * "Runs <workflow name>", linked to the child run when `link` (the owner's view). A share view never
 * links: the child run is the owner's alone (and its id reaches a share view as "").
 */
export function SubflowRunLink({ subflow, link }: { subflow: SubflowRunView; link: boolean }) {
  const text = (
    <>
      Runs <span data-testid="subflow-workflow-name">{subflow.workflowName}</span>
    </>
  );
  if (!link || subflow.runId === "") return <span data-testid="subflow-run">{text}</span>;
  return (
    <Link href={`/runs/${subflow.runId}`} className="underline" data-testid="subflow-run-link">
      {text}
    </Link>
  );
}

type SubflowStep = StepState & { subflow: SubflowRunView };

/**
 * The run's subflow steps, each with the run it started and that step's status (waiting while the
 * child runs): where the owner goes on to a child run.
 */
export function SubflowRuns({
  steps,
  nodeName,
  link,
}: {
  steps: readonly SubflowStep[];
  nodeName: (id: string) => string;
  link: boolean;
}) {
  return (
    <Card data-testid="subflow-runs">
      <CardHeader>
        <CardTitle>Subflows</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-1 text-sm">
          {steps.map((s) => (
            <li key={s.key} className="flex flex-wrap items-center gap-2" data-testid={`subflow-step-${s.nodeId}`}>
              <span className="font-medium">
                {nodeName(s.nodeId)}
                {s.iteration > 1 ? ` #${s.iteration}` : ""}
              </span>
              <SubflowRunLink subflow={s.subflow} link={link} />
              <StatusBadge status={s.status} />
              {s.status === "waiting" && <span className="text-xs text-muted">until its run ends</span>}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * The workflows the canvas's subflow nodes name (owner view: a share view has no workflow ids):
 * those the run's subflow steps started, under the name they started with, and the owner's
 * workflows the document names (`known`, id → current name) for nodes not started yet. Only those
 * are known, so the rest read "another workflow".
 */
export function startedSubflowTargets(
  steps: readonly { subflow: SubflowRunView }[],
  known: Readonly<Record<string, string>> = {},
): SubflowTargets {
  const byId = new Map(Object.entries(known));
  for (const s of steps) if (s.subflow.workflowId !== "") byId.set(s.subflow.workflowId, s.subflow.workflowName);
  return {
    partial: true,
    targets: [...byId].map(([id, name]) => ({ id, name, version: null, inputs: [], outputs: [] })),
  };
}
