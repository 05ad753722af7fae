import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AskPanel } from "@/components/knowledge/ask-panel";
import { DeleteCollectionButton } from "@/components/knowledge/delete-collection-button";
import { DocumentTable } from "@/components/knowledge/document-table";
import { SearchPanel } from "@/components/knowledge/search-panel";
import { UploadPanel } from "@/components/knowledge/upload-panel";
import { ArrowLeftIcon } from "@/components/ui/icons";
import { PageHeader } from "@/components/ui/page-header";
import { requireAccess } from "@/lib/auth/access";
import { KB_EXTENSIONS } from "@/lib/kb/formats";
import { findCollection, listDocuments, maxUploadBytes } from "@/lib/kb/collections";
import type { DocumentRow } from "@/lib/kb/types";
import { askAction, deleteCollectionAction, deleteDocumentAction, searchAction } from "../actions";

export const metadata: Metadata = { title: "Collection" };

type Props = { params: Promise<{ id: string }> };

/** One collection: upload files, see documents and chunk counts, delete, try a search, and ask with sources. */
export default async function CollectionPage({ params }: Props) {
  const { id } = await params;
  const access = await requireAccess("read", `/knowledge/${id}`);
  const collection = await findCollection(access.workspaceId, id);
  if (!collection || collection.id !== id) notFound();
  const documents = (await listDocuments(access.workspaceId, id)) ?? [];
  const rows: DocumentRow[] = documents.map((d) => ({
    id: d.id,
    name: d.name,
    title: d.title,
    format: d.format,
    sizeBytes: d.sizeBytes,
    pageCount: d.pageCount,
    chunkCount: d.chunkCount,
    textChars: d.textChars,
    createdAt: d.createdAt.toISOString(),
  }));
  const accept = Object.values(KB_EXTENSIONS).flat();
  return (
    <>
      <Link href="/knowledge" className="mb-4 inline-flex items-center gap-1 text-sm text-muted hover:text-foreground">
        <ArrowLeftIcon /> Knowledge
      </Link>
      <PageHeader
        title={collection.name}
        description={
          <>
            {collection.description && <span className="block">{collection.description}</span>}
            <span className="text-xs">
              {collection.documentCount} document{collection.documentCount === 1 ? "" : "s"} · {collection.chunkCount}{" "}
              chunks
              {collection.embeddingModel
                ? ` · embedded with ${collection.embeddingModel} (${collection.dimensions} dimensions)`
                : ""}
              {" · "}agents use it as <code>{`kb_query {"collection": "${collection.name}"}`}</code>
            </span>
          </>
        }
        actions={
          <DeleteCollectionButton
            id={collection.id}
            name={collection.name}
            documents={collection.documentCount}
            action={deleteCollectionAction}
          />
        }
      />
      <div className="grid gap-8">
        <section aria-labelledby="upload-heading" className="grid gap-3">
          <h2 id="upload-heading" className="text-sm font-semibold">
            Upload
          </h2>
          <UploadPanel collectionId={collection.id} accept={accept} maxBytes={maxUploadBytes()} />
        </section>
        <section aria-labelledby="docs-heading" className="grid gap-3">
          <h2 id="docs-heading" className="text-sm font-semibold">
            Documents
          </h2>
          <DocumentTable documents={rows} remove={deleteDocumentAction} />
        </section>
        <section aria-labelledby="ask-heading" className="grid gap-3">
          <h2 id="ask-heading" className="text-sm font-semibold">
            Ask with sources
          </h2>
          <AskPanel collectionId={collection.id} ask={askAction} disabled={rows.length === 0} />
        </section>
        <section aria-labelledby="search-heading" className="grid gap-3">
          <h2 id="search-heading" className="text-sm font-semibold">
            Try a search
          </h2>
          <SearchPanel collectionId={collection.id} search={searchAction} disabled={rows.length === 0} />
        </section>
      </div>
    </>
  );
}
