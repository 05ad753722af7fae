import "server-only";
import { buildDocx, buildPdf } from "./fixtures";
import type { KbFormat } from "@/lib/kb/formats";
import { createCollection, ensureCollection, ingestDocument } from "@/lib/kb/collections";
import type { CollectionView, DocumentView } from "@/lib/kb/types";

/**
 * Test helpers over the REAL knowledge base (PostgreSQL + the scripted embeddings server): a sample
 * corpus with one file of every format, a seeding helper, and scripted-model rules for kb_answer.
 * Scenario C (financial analyst) uses `seedFinancialKnowledge` for its document-manager worker.
 */

/** A file for upload: name, bytes, the fact it holds and a question that finds it. */
export interface SampleFile {
  name: string;
  format: KbFormat;
  bytes: Buffer;
  /** A phrase of the chunk that answers `question` (as stored after conversion). */
  fact: string;
  question: string;
}

const utf8 = (s: string) => Buffer.from(s, "utf8");

/** One small file of each supported format, each holding one distinct fact. */
export function sampleFiles(): SampleFile[] {
  return [
    {
      name: "warehouse-notes.txt",
      format: "text",
      bytes: utf8(
        "Logistics notes\n\nThe Lyon warehouse ships customer orders every Tuesday morning.\n\nForklifts are serviced monthly.\n",
      ),
      fact: "Lyon warehouse ships customer orders every Tuesday",
      question: "When does the Lyon warehouse ship orders?",
    },
    {
      name: "handbook.md",
      format: "markdown",
      bytes: utf8(
        "# Employee handbook\n\n## Vacation\n\nEmployees receive 25 vacation days per calendar year.\n\n## Security\n\nBadges must be worn visibly inside the building.\n",
      ),
      fact: "25 vacation days",
      question: "How many vacation days do employees receive?",
    },
    {
      name: "annual-report.pdf",
      format: "pdf",
      bytes: buildPdf(
        [
          ["Annual report 2025", "Revenue grew 12 percent to 48 million euros."],
          ["Outlook", "Operating costs fell 3 percent after the warehouse merger."],
        ],
        "Annual report 2025",
      ),
      fact: "Revenue grew 12 percent",
      question: "How much did revenue grow?",
    },
    {
      name: "refund-policy.docx",
      format: "docx",
      bytes: buildDocx([
        { heading: 1, text: "Refund policy" },
        "Customers may return unused products within 30 days for a full refund.",
        { heading: 2, text: "Exceptions" },
        "Gift cards cannot be refunded.",
      ]),
      fact: "return unused products within 30 days",
      question: "Within how many days can customers return products for a refund?",
    },
    {
      name: "support-faq.html",
      format: "html",
      bytes: utf8(
        "<!doctype html><html><head><title>Support FAQ</title></head><body><nav>Home | Shop</nav><main><h1>Support FAQ</h1><p>Telephone support is available on weekdays from 9am to 5pm Paris time.</p><p>Email answers arrive within one business day.</p></main></body></html>",
      ),
      fact: "Telephone support is available on weekdays",
      question: "When is telephone support available?",
    },
    {
      name: "prices.csv",
      format: "csv",
      bytes: utf8('product,price_eur,stock\nKettle,39,120\n"Toaster, 2 slots",25,40\nBlender,59,15\n'),
      fact: "product: Kettle; price_eur: 39",
      question: "What is the price of the Kettle?",
    },
  ];
}

/** Creates `collection` for the owner (or reuses it) and uploads `files` (default: sampleFiles()). */
export async function seedKnowledgeBase(
  workspaceId: string,
  collection: string,
  files: { name: string; bytes: Uint8Array }[] = sampleFiles(),
): Promise<{ collection: CollectionView; documents: DocumentView[] }> {
  const coll = await ensureCollection(workspaceId, collection);
  const documents: DocumentView[] = [];
  for (const f of files)
    documents.push((await ingestDocument(workspaceId, coll.id, { name: f.name, bytes: f.bytes })).document);
  return { collection: coll, documents };
}

/** A 10-K-like filing and a board memo for scenario C's document manager (collection "filings"). */
export async function seedFinancialKnowledge(
  workspaceId: string,
  collection = "filings",
): Promise<{ collection: CollectionView; documents: DocumentView[] }> {
  await createCollection(workspaceId, { name: collection, description: "ACME filings" }).catch(() => undefined);
  return seedKnowledgeBase(workspaceId, collection, [
    {
      name: "acme-10k.pdf",
      bytes: buildPdf(
        [
          ["ACME Corp annual report (10-K)", "Net revenue rose 12 percent to 4.2 billion dollars."],
          ["Risk factors", "Supplier concentration: two vendors provide 60 percent of components."],
        ],
        "ACME 10-K",
      ),
    },
    {
      name: "board-memo.md",
      bytes: utf8("# Board memo\n\n## Dividend\n\nThe board proposes a dividend of 1.10 dollars per share.\n"),
    },
  ]);
}

/** A scripted-model rule answering kb_answer's prompt (system marker [[kb-answer]]) with `text`, when the prompt contains `whenPromptHas`. */
export function kbAnswerRule(id: string, whenPromptHas: string, text: string) {
  return { id, match: { system: "[[kb-answer]]", anyMessage: whenPromptHas }, reply: { text } };
}
