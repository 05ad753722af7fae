import { describe, expect, it } from "vitest";
import { DEFAULT_FIXTURE_DIR } from "@/lib/llm/scripted/fixture";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor } from "@/test/helpers/worker";
import { getDataset } from "./datasets";
import { createExperiment } from "./experiments";
import { getExperiment } from "./results";
import { createTemplateDataset } from "./templates";

/** The offline demo: a template's dataset runs as an experiment on the Scripted demo model, judge included. */
const rt = useWorkerRuntime({ fixtures: DEFAULT_FIXTURE_DIR });

describe("templates' datasets on the offline demo", () => {
  it(
    "the triage template's dataset: every case runs and is scored, the demo judge's reasoning stored",
    { timeout: 120_000 },
    async () => {
      const { datasetId, workflowId } = await createTemplateDataset(rt.workspaceId, "refund-triage");
      expect((await getDataset(rt.workspaceId, datasetId)).rowCount).toBe(4);
      const again = await createTemplateDataset(rt.workspaceId, "refund-triage");
      expect((await getDataset(rt.workspaceId, again.datasetId)).name).toBe("Customer messages 2");
      const { id } = await createExperiment(rt.workspaceId, {
        datasetId,
        variants: [{ workflowId, version: 1 }],
        evaluators: [
          { kind: "length", name: "answers", min: 1 },
          { kind: "judge", name: "judge", rubric: "Does the reply deal with the customer's request?" },
        ],
      });
      const exp = await waitFor(
        async () => {
          const e = await getExperiment(rt.workspaceId, id);
          return e.status === "succeeded" ? e : undefined;
        },
        90_000,
        "the experiment's end",
      );
      expect(exp.progress.scored).toBe(4);
      for (const row of exp.rows) {
        expect(row.cells[0]).toMatchObject({ runStatus: "succeeded", passed: true });
        expect(row.cells[0]!.results.find((r) => r.name === "judge")!.reasoning).toContain("Scripted judge");
      }
    },
  );
});
