import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PlayIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requireUser("/runs");
  return (
    <>
      <PageHeader title="Runs" description="Every execution of your workflows, live and past." />
      <EmptyState icon={<PlayIcon width={20} height={20} />} title="No runs yet" description="Open a workflow and run it; its steps stream here live.">
        <Link href="/workflows" className={buttonClasses("outline")}>Go to workflows</Link>
      </EmptyState>
    </>
  );
}
