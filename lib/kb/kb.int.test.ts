import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db/client";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { executeTool } from "@/lib/tools/registry";
import { useTestDatabase } from "@/test/db";
import { buildDocx, buildPdf } from "./testing/fixtures";
import { searchKnowledge } from "./search";
import {
  createCollection,
  deleteCollection,
  deleteDocument,
  findCollection,
  ingestDocument,
  listCollections,
  listDocuments,
} from "./collections";
import { kbAnswerRule, sampleFiles, seedKnowledgeBase } from "./testing";

useTestDatabase();
vi.setConfig({ testTimeout: 120_000 });

let model: ScriptedServer;
let owner = "";
let collectionId = "";
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  model = await startScriptedServer({ fixtures: [{ rules: [] }] });
  for (const k of [
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "WEFT_SCRIPTED_MODEL_URL",
    "WEFT_SCRIPTED_MODEL_PORT",
    "WEFT_EMBEDDING_BASE_URL",
    "WEFT_EMBEDDING_MODEL",
    "WEFT_KB_MAX_UPLOAD_MB",
  ]) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
  process.env.WEFT_SCRIPTED_MODEL_PORT = String(model.port);
  owner = (await createTestUser()).id;
  collectionId = (await seedKnowledgeBase(owner, "company")).collection.id;
}, 180_000);

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await model?.close();
});

const chunkCount = () => db().kbChunk.count();
const docCount = () => db().kbDocument.count();

describe("upload and convert", () => {
  test("one file of each format is stored with its chunks, offsets and embeddings", async () => {
    const docs = (await listDocuments(owner, collectionId))!;
    expect(docs.map((d) => d.format).sort()).toEqual(["csv", "docx", "html", "markdown", "pdf", "text"]);
    for (const f of sampleFiles()) {
      const d = docs.find((x) => x.name === f.name)!;
      const chunks = await db().kbChunk.findMany({ where: { documentId: d.id }, orderBy: { ordinal: "asc" } });
      const { text } = await db().kbDocument.findUniqueOrThrow({ where: { id: d.id }, select: { text: true } });
      expect(chunks.length, f.name).toBe(d.chunkCount);
      expect(
        chunks.some((c) => c.text.includes(f.fact)),
        `${f.name} holds "${f.fact}"`,
      ).toBe(true);
      for (const c of chunks) {
        expect(text.slice(c.startOffset, c.endOffset)).toBe(c.text);
        expect(c.embedding).toHaveLength(256);
        expect(Math.abs(Math.hypot(...c.embedding) - 1)).toBeLessThan(1e-3);
        expect(c.embeddingBits).toBe(c.embedding.map((x) => (x > 0 ? "1" : "0")).join(""));
      }
    }
    const pdf = docs.find((d) => d.format === "pdf")!;
    expect(pdf.pageCount).toBe(2);
    const pdfChunks = await db().kbChunk.findMany({ where: { documentId: pdf.id }, orderBy: { ordinal: "asc" } });
    expect(pdfChunks.map((c) => c.page)).toEqual([1, 2]);
    expect(pdfChunks[1]!.text).toContain("Operating costs fell");
    const md = await db().kbChunk.findFirstOrThrow({ where: { text: { contains: "25 vacation days" } } });
    expect(md.heading).toBe("Employee handbook › Vacation");
    const docx = await db().kbChunk.findFirstOrThrow({ where: { text: { contains: "Gift cards" } } });
    expect(docx.heading).toBe("Refund policy › Exceptions");
    const html = docs.find((d) => d.format === "html")!;
    expect(html.title).toBe("Support FAQ");
    const coll = (await findCollection(owner, "company"))!;
    expect(coll).toMatchObject({ embeddingModel: "scripted-embed", dimensions: 256, documentCount: 6 });
  });

  test("refusals name the file and the reason, and store nothing", async () => {
    const before = [await docCount(), await chunkCount()];
    const reject = (name: string, bytes: Uint8Array) => ingestDocument(owner, collectionId, { name, bytes });
    await expect(reject("tool.exe", Buffer.from("MZ\x90\x00"))).rejects.toMatchObject({
      code: "bad_request",
      details: { reason: "unsupported" },
      message: expect.stringContaining("tool.exe"),
    });
    await expect(reject("broken.pdf", Buffer.from("%PDF-1.4\nthis is not a pdf body"))).rejects.toMatchObject({
      details: { reason: "corrupt" },
      message: expect.stringContaining("broken.pdf"),
    });
    await expect(reject("fake.pdf", Buffer.from("hello"))).rejects.toMatchObject({ details: { reason: "corrupt" } });
    await expect(
      reject("broken.docx", Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.alloc(64, 1)])),
    ).rejects.toMatchObject({ details: { reason: "corrupt" } });
    await expect(reject("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x21]))).rejects.toMatchObject({
      details: { reason: "corrupt" },
      message: expect.stringContaining("UTF-8"),
    });
    await expect(reject("bad.csv", Buffer.from('a,b\n"unterminated,1\n'))).rejects.toMatchObject({
      details: { reason: "corrupt" },
    });
    await expect(reject("empty.md", Buffer.alloc(0))).rejects.toMatchObject({ details: { reason: "empty" } });
    await expect(reject("blank.pdf", buildPdf([[]]))).rejects.toMatchObject({
      details: { reason: "empty" },
      message: expect.stringContaining("OCR"),
    });
    process.env.WEFT_KB_MAX_UPLOAD_MB = "0.01";
    try {
      await expect(reject("big.txt", Buffer.alloc(20_000, 97))).rejects.toMatchObject({
        details: { reason: "too_large" },
        message: expect.stringContaining("big.txt"),
      });
    } finally {
      delete process.env.WEFT_KB_MAX_UPLOAD_MB;
    }
    expect([await docCount(), await chunkCount()]).toEqual(before);
  });

  test("the same bytes twice are stored once; long documents chunk with overlap", async () => {
    const again = await ingestDocument(owner, collectionId, {
      name: "copy-of-handbook.md",
      bytes: sampleFiles()[1]!.bytes,
    });
    expect(again.duplicate).toBe(true);
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i} describes the supply chain of component ${i * 7}.`,
    );
    const long = await ingestDocument(owner, collectionId, {
      name: "long.docx",
      bytes: buildDocx([
        { heading: 1, text: "Supply chain" },
        sentences.slice(0, 30).join(" "),
        sentences.slice(30).join(" "),
      ]),
    });
    const chunks = await db().kbChunk.findMany({
      where: { documentId: long.document.id },
      orderBy: { ordinal: "asc" },
    });
    expect(chunks.length).toBeGreaterThan(2);
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.startOffset).toBeLessThan(chunks[i - 1]!.endOffset); // overlap
      expect(chunks[i]!.endOffset).toBeGreaterThan(chunks[i - 1]!.endOffset); // progress
      expect(chunks[i]!.text.length).toBeLessThanOrEqual(1200);
    }
    expect(await deleteDocument(owner, long.document.id)).toBe(true);
    expect(await db().kbChunk.count({ where: { documentId: long.document.id } })).toBe(0);
  });
});

describe("search", () => {
  test("each sample question finds its file's chunk first (hybrid)", async () => {
    for (const f of sampleFiles()) {
      const hits = await searchKnowledge(owner, { query: f.question, collections: ["company"], k: 3 });
      expect(hits[0]?.documentName, f.question).toBe(f.name);
      expect(hits[0]!.text).toContain(f.fact);
    }
  });

  test("vector-only and text-only modes rank by their own signal", async () => {
    const vec = await searchKnowledge(owner, {
      query: "How many vacation days do employees receive?",
      k: 3,
      mode: "vector",
    });
    expect(vec[0]?.documentName).toBe("handbook.md");
    expect(vec.every((h) => h.similarity !== null && h.textRank === null)).toBe(true);
    expect(vec[0]!.similarity!).toBeGreaterThan(vec[1]!.similarity!);
    const txt = await searchKnowledge(owner, { query: "kettle", k: 3, mode: "text" });
    expect(txt.map((h) => h.documentName)).toEqual(["prices.csv"]);
  });

  test("collections are per user; a foreign or unknown collection is not found", async () => {
    const other = (await createTestUser()).id;
    expect(await searchKnowledge(other, { query: "vacation days" })).toEqual([]);
    await expect(searchKnowledge(other, { query: "vacation", collections: ["company"] })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await listDocuments(other, collectionId)).toBeNull();
    expect(await deleteCollection(other, collectionId)).toBe(false);
    expect(await listCollections(other)).toEqual([]);
    // other tests add collections of their own to this owner: compare with the list before the refusal
    const before = (await listCollections(owner)).map((c) => c.name);
    expect(before.filter((name) => name === "company")).toHaveLength(1);
    await expect(createCollection(owner, { name: "company" })).rejects.toMatchObject({ code: "conflict" });
    expect((await listCollections(owner)).map((c) => c.name)).toEqual(before);
  });

  test("a collection embedded with one model refuses uploads embedded with another", async () => {
    process.env.WEFT_EMBEDDING_MODEL = "other-embed";
    try {
      await expect(
        ingestDocument(owner, collectionId, { name: "new.txt", bytes: Buffer.from("fresh text") }),
      ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("scripted-embed") });
      // text search still works for it
      const hits = await searchKnowledge(owner, { query: "Tuesday warehouse", collections: ["company"] });
      expect(hits[0]?.documentName).toBe("warehouse-notes.txt");
      expect(hits[0]?.similarity).toBeNull();
    } finally {
      delete process.env.WEFT_EMBEDDING_MODEL;
    }
  });
});

test("an unreachable embeddings endpoint is a clear 503 and stores nothing", async () => {
  const coll = await createCollection(owner, { name: "offline" });
  const before = [await docCount(), await chunkCount()];
  process.env.WEFT_EMBEDDING_BASE_URL = "http://127.0.0.1:9/v1";
  process.env.WEFT_EMBEDDING_MODEL = "scripted-embed";
  try {
    await expect(
      ingestDocument(owner, coll.id, { name: "a.md", bytes: Buffer.from("# A\n\ntext") }),
    ).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/embeddings endpoint failed.*Nothing was stored/),
    });
  } finally {
    delete process.env.WEFT_EMBEDDING_BASE_URL;
    delete process.env.WEFT_EMBEDDING_MODEL;
  }
  expect([await docCount(), await chunkCount()]).toEqual(before);
  expect((await findCollection(owner, coll.id))?.embeddingModel).toBeNull();
  await deleteCollection(owner, coll.id);
});

describe("tools", () => {
  test("kb_save then kb_query finds the saved text with its source", async () => {
    const saved = await executeTool(
      owner,
      { name: "kb_save" },
      {
        collection: "notes",
        title: "Meeting 14 May",
        text: "The team agreed to migrate the billing service to Kotlin in Q3.",
      },
    );
    expect(saved).toMatchObject({ ok: true, output: { collection: "notes", chunks: 1, duplicate: false } });
    const q = await executeTool(
      owner,
      { name: "kb_query" },
      { query: "billing service migration", collection: "notes", k: 2 },
    );
    expect(q.ok).toBe(true);
    const results = (
      q as { output: { results: { chunkId: string; document: string; text: string; heading: string | null }[] } }
    ).output.results;
    expect(results[0]).toMatchObject({ document: "Meeting 14 May.md", heading: "Meeting 14 May" });
    expect(results[0]!.text).toContain("Kotlin");
    const bad = await executeTool(owner, { name: "kb_query" }, { query: "x", collection: "nope" });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining("nope") });
  });

  test("kb_answer retrieves, asks the model with labelled sources and returns the cited chunk", async () => {
    model.load(
      [
        {
          rules: [
            kbAnswerRule("kb-vacation", "How many vacation days", "Employees receive 25 vacation days per year [S1]."),
          ],
        },
      ],
      "add",
    );
    const r = await executeTool(
      owner,
      { name: "kb_answer" },
      { question: "How many vacation days do employees receive?", collection: "company", k: 3 },
    );
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const out = (
      r as {
        output: {
          answer: string;
          citations: { label: string; chunkId: string; document: string; text: string }[];
          sources: unknown[];
        };
      }
    ).output;
    expect(out.answer).toContain("25 vacation days");
    expect(out.citations).toHaveLength(1);
    expect(out.citations[0]).toMatchObject({ label: "S1", document: "handbook.md" });
    expect(out.citations[0]!.text).toContain("25 vacation days");
    const chunk = await db().kbChunk.findUniqueOrThrow({ where: { id: out.citations[0]!.chunkId } });
    expect(chunk.text).toBe(out.citations[0]!.text);
    const prompt = JSON.stringify(model.requests().find((q) => q.rule === "kb-vacation")?.body);
    expect(prompt).toContain("[S1] (handbook.md, Employee handbook › Vacation");
    expect(prompt).toContain(chunk.id);
  });
});
