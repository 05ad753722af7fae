import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { buildPdf } from "@/lib/kb/testing/fixtures";
import { createCollection } from "@/lib/kb/collections";
import { startScriptedServer, type ScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { useTestDatabase } from "@/test/db";
import { GET, POST } from "./route";

useTestDatabase();
let model: ScriptedServer;
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;
let collectionId = "";
const portBefore = process.env.WEFT_SCRIPTED_MODEL_PORT;

beforeAll(async () => {
  model = await startScriptedServer({ fixtures: [{ rules: [] }] });
  process.env.WEFT_SCRIPTED_MODEL_PORT = String(model.port);
  [alice, bob] = [await createTestUser(), await createTestUser()];
  collectionId = (await createCollection(alice.id, { name: "docs" })).id;
}, 120_000);
afterAll(async () => {
  process.env.WEFT_SCRIPTED_MODEL_PORT = portBefore;
  await model?.close();
});

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const upload = (
  auth: Record<string, string>,
  name: string | null,
  body: BodyInit,
  headers: Record<string, string> = {},
  id = collectionId,
) =>
  POST(
    new Request(`http://localhost/api/kb/collections/${id}/documents`, {
      method: "POST",
      body,
      headers: {
        ...auth,
        "content-type": "application/octet-stream",
        ...(name === null ? {} : { "x-kb-filename": encodeURIComponent(name) }),
        ...headers,
      },
      ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit),
    ctx(id),
  );

describe("POST /api/kb/collections/:id/documents", () => {
  it("stores a PDF (201), answers 200 duplicate for the same bytes, and lists it", async () => {
    const pdf = new Uint8Array(buildPdf([["Upload through the API works."]]));
    const first = await upload(alice.auth, "api doc é.pdf", pdf);
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body).toMatchObject({
      duplicate: false,
      document: { name: "api doc é.pdf", format: "pdf", chunkCount: 1, pageCount: 1 },
    });
    const again = await upload(alice.auth, "renamed.pdf", pdf);
    expect(again.status).toBe(200);
    expect((await again.json()).duplicate).toBe(true);
    const list = await GET(
      new Request(`http://localhost/api/kb/collections/${collectionId}/documents`, { headers: alice.auth }),
      ctx(collectionId),
    );
    expect((await list.json()).documents.map((d: { name: string }) => d.name)).toEqual(["api doc é.pdf"]);
  });

  it("refuses unsupported, corrupt, nameless and oversized uploads with a reason; nothing is stored", async () => {
    const before = await db().kbDocument.count();
    const reason = async (r: Response) => ({ status: r.status, reason: (await r.json()).error?.details?.reason });
    expect(await reason(await upload(alice.auth, "slides.pptx", "PK\x03\x04"))).toEqual({
      status: 400,
      reason: "unsupported",
    });
    expect(await reason(await upload(alice.auth, "scan.pdf", "not a pdf"))).toEqual({ status: 400, reason: "corrupt" });
    expect(await reason(await upload(alice.auth, null, "text"))).toEqual({ status: 400, reason: "unsupported" });
    process.env.WEFT_KB_MAX_UPLOAD_MB = "0.01"; // 10 KB
    try {
      expect(await reason(await upload(alice.auth, "big.txt", "a".repeat(20_000)))).toEqual({
        status: 400,
        reason: "too_large",
      });
      // without a Content-Length: the stream is cut at the limit
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 30; i++) c.enqueue(new Uint8Array(1024).fill(98));
          c.close();
        },
      });
      expect(await reason(await upload(alice.auth, "stream.txt", stream))).toEqual({
        status: 400,
        reason: "too_large",
      });
    } finally {
      delete process.env.WEFT_KB_MAX_UPLOAD_MB;
    }
    expect(await db().kbDocument.count()).toBe(before);
  });

  it("needs a caller, refuses cross-site cookie requests, and hides other users' collections", async () => {
    expect((await upload({ authorization: "Bearer weft_not_a_token" }, "a.txt", "hello")).status).toBe(401);
    expect((await upload({ origin: "https://evil.test" }, "a.txt", "hello")).status).toBe(403); // refused before any session lookup
    expect((await upload(bob.auth, "a.txt", "hello")).status).toBe(404);
    const list = await GET(
      new Request(`http://localhost/api/kb/collections/${collectionId}/documents`, { headers: bob.auth }),
      ctx(collectionId),
    );
    expect(list.status).toBe(404);
  });
});
