import type { Metadata } from "next";
import { EvaluationPanel, type EvaluationJson } from "@/components/designer/evaluation-panel";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";
import { listEvaluations } from "@/lib/designer/evaluation-store";
import { evaluationEntries } from "@/lib/designer/evaluate";
import { listProviders } from "@/lib/db/providers";

export const metadata: Metadata = { title: "Designer evaluation" };

/** Settings → Designer evaluation: run the designer's test requests on a provider, read the reports. */
export default async function DesignerEvaluationPage() {
  const user = await requireUser("/settings/designer-evaluation");
  const [providers, evaluations] = await Promise.all([listProviders(user.id), listEvaluations(user.id)]);
  const initial: EvaluationJson[] = evaluations.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() }));
  return (
    <>
      <PageHeader
        title="Designer evaluation"
        description="How well the designer works with your model: the test requests, run on the provider you choose."
      />
      <EvaluationPanel
        providers={providers.map(({ id, name, defaultModel }) => ({ id, name, defaultModel }))}
        initial={initial}
        requests={evaluationEntries().length}
      />
    </>
  );
}
