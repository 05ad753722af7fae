import type { Metadata } from "next";
import { AskPanel } from "@/components/knowledge/ask-panel";
import { CollectionList } from "@/components/knowledge/collection-list";
import { CreateCollectionForm } from "@/components/knowledge/create-collection-form";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { listCollections } from "@/lib/kb/collections";
import type { CollectionRow } from "@/lib/kb/types";
import { askAction, createCollectionAction } from "./actions";

export const metadata: Metadata = { title: "Knowledge" };

/** Knowledge base: named collections of documents agents search with kb_query / kb_answer; ask them all with sources. */
export default async function KnowledgePage() {
  const access = await requireAccess("read", "/knowledge");
  const collections = await listCollections(access.workspaceId);
  const rows: CollectionRow[] = collections.map((c) => ({
    id: c.id,
    name: c.name,
    description: c.description,
    documentCount: c.documentCount,
    chunkCount: c.chunkCount,
    embeddingModel: c.embeddingModel,
    dimensions: c.dimensions,
    updatedAt: c.updatedAt.toISOString(),
  }));
  return (
    <>
      <PageHeader
        title="Knowledge"
        description="Upload documents into collections; agents search them with the kb_query and kb_answer tools and cite the chunks they used."
      />
      <div className="grid gap-6">
        <CreateCollectionForm action={createCollectionAction} />
        {rows.length ? (
          <CollectionList collections={rows} />
        ) : (
          <EmptyState
            title="No collections yet"
            description="Create a collection, then upload text, Markdown, PDF, Word (DOCX), HTML or CSV files into it."
          />
        )}
        {rows.some((r) => r.documentCount > 0) && (
          <section aria-labelledby="ask-all-heading" className="grid gap-3">
            <h2 id="ask-all-heading" className="text-sm font-semibold">
              Ask all collections
            </h2>
            <AskPanel ask={askAction} />
          </section>
        )}
      </div>
    </>
  );
}
