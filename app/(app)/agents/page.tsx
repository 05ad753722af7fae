import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { BotIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  await requireUser("/agents");
  return (
    <>
      <PageHeader title="Agents" description="Reusable agents: instructions, model and tools." />
      <EmptyState icon={<BotIcon width={20} height={20} />} title="No saved agents" description="Agents you save from a workflow appear here for reuse.">
        <Link href="/workflows" className={buttonClasses("outline")}>Go to workflows</Link>
      </EmptyState>
    </>
  );
}
