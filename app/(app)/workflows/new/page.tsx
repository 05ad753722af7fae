import type { Metadata } from "next";
import { DescribeForm } from "@/components/designer/describe-form";
import { TemplateGallery, type GalleryTemplate } from "@/components/editor/template-gallery";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { workflowSchema } from "@/lib/workflow/schema";
import { templateDocument, templateOptions } from "../templates";
import { createFromGalleryAction, describeWorkflowAction } from "./actions";

export const metadata: Metadata = { title: "New workflow" };

type Props = { searchParams: Promise<{ error?: string }> };

/** New workflow: describe it in plain language (the designer drafts it), or start from a pattern. */
export default async function NewWorkflowPage({ searchParams }: Props) {
  await requireAccess("edit", "/workflows/new");
  const { error } = await searchParams;
  const templates: GalleryTemplate[] = templateOptions().map((t) => {
    const doc = t.id === "blank" ? null : templateDocument(t.id);
    const parsed = doc ? workflowSchema.safeParse(doc) : null;
    return { ...t, ...(parsed?.success ? { workflow: parsed.data } : {}) };
  });
  return (
    <>
      <PageHeader title="New workflow" description="Describe the system you want, or start from a pattern." />
      <DescribeForm
        action={describeWorkflowAction}
        error={error === "empty" ? "Describe what the workflow should do." : undefined}
      />
      <section aria-labelledby="gallery-heading" className="mt-10">
        <h2 id="gallery-heading" className="mb-3 text-sm font-semibold">
          Or start from a pattern
        </h2>
        <TemplateGallery templates={templates} action={createFromGalleryAction} />
      </section>
    </>
  );
}
