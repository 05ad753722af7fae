import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import type { CollectionRow } from "@/lib/kb/types";

/** The user's collections with document and chunk counts; each opens its page. */
export function CollectionList({ collections }: { collections: CollectionRow[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="kb-collections">
      {collections.map((c) => (
        <li key={c.id}>
          <Card className="h-full p-4 transition-colors hover:bg-surface-2/60">
            <Link href={`/knowledge/${c.id}`} className="block font-medium hover:text-primary">
              {c.name}
            </Link>
            {c.description && <p className="mt-0.5 line-clamp-2 text-sm text-muted">{c.description}</p>}
            <div className="mt-3 flex flex-wrap gap-2 text-xs">
              <Badge tone="primary">
                {c.documentCount} document{c.documentCount === 1 ? "" : "s"}
              </Badge>
              <Badge>
                {c.chunkCount} chunk{c.chunkCount === 1 ? "" : "s"}
              </Badge>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
