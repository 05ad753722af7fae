import type { Metadata } from "next";
import { EvaluationPanel, type EvaluationJson } from "@/components/designer/evaluation-panel";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { listEvaluations } from "@/lib/designer/evaluation-store";
import { evaluationEntries } from "@/lib/designer/evaluate";
import { listProviders } from "@/lib/db/providers";

export const metadata: Metadata = { title: "Designer evaluation" };

/** Settings → Designer evaluation: run the designer's test requests on a provider, read the reports. */
export default async function DesignerEvaluationPage() {
  const access = await requireAccess("read", "/settings/designer-evaluation");
  const [providers, evaluations] = await Promise.all([
    listProviders(access.workspaceId),
    listEvaluations(access.workspaceId),
  ]);
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
