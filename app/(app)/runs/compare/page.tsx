import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { RunComparison } from "@/components/runs/run-comparison";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { AppError } from "@/lib/errors";
import { compareRuns } from "@/lib/run-views/compare";

export const metadata: Metadata = { title: "Compare runs" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Two of the user's runs side by side, step by step (`?a=<run>&b=<run>`); anyone else's run is a 404. */
export default async function CompareRunsPage({ searchParams }: Props) {
  const params = await searchParams;
  const [a, b] = [params.a, params.b].map((v) => (typeof v === "string" ? v : ""));
  const access = await requireAccess(
    "read",
    `/runs/compare?a=${encodeURIComponent(a ?? "")}&b=${encodeURIComponent(b ?? "")}`,
  );
  if (!a || !b) notFound();
  const comparison = await compareRuns(access.workspaceId, a, b).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "not_found") return null;
    throw err;
  });
  if (!comparison) notFound();
  return (
    <>
      <PageHeader
        title={`Compare runs of ${comparison.right.workflowName}`}
        description="Step by step: what each run did, what a retry or fork reused, and where they differ."
        actions={
          <Link href={`/runs/${b}`} className="inline-flex items-center gap-1 text-sm text-muted hover:text-foreground">
            <ArrowLeftIcon width={14} height={14} /> Back to the run
          </Link>
        }
      />
      <RunComparison comparison={comparison} />
    </>
  );
}
