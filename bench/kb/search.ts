/**
 * Search latency of the real[] + tsvector hybrid at growing collection sizes, in a throwaway database
 * cloned from the migrated template (synthetic chunks: random vectors, text from a 2,000-word vocabulary).
 *   node --import tsx --conditions=react-server bench/kb/search.ts [sizes=1000,10000,50000] [dims=256]
 */
import { randomBytes } from "node:crypto";
import { createTestDatabase, dropTestDatabase } from "@/test/db";

const sizes = (process.argv[2] ?? "1000,10000,50000").split(",").map(Number);
const dims = Number(process.argv[3] ?? 256);

async function main() {
  const database = await createTestDatabase();
  process.env.DATABASE_URL = database.url;
  const { startScriptedServer } = await import("@/lib/llm/scripted/server");
  const model = await startScriptedServer({ fixtures: [{ rules: [] }] });
  process.env.WEFT_SCRIPTED_MODEL_PORT = String(model.port);
  process.env.WEFT_EMBEDDING_DIMENSIONS = String(dims);
  for (const k of [
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "WEFT_SCRIPTED_MODEL_URL",
    "WEFT_EMBEDDING_BASE_URL",
    "WEFT_EMBEDDING_MODEL",
  ])
    delete process.env[k];
  const { db, disconnectDb } = await import("@/lib/db/client");
  const { searchKnowledge } = await import("@/lib/kb/search");
  const { embedTexts } = await import("@/lib/kb/embeddings");
  try {
    const user = await db().user.create({ data: { email: `bench-${randomBytes(4).toString("hex")}@test.local` } });
    const coll = await db().kbCollection.create({
      data: { workspaceId: user.id, name: "bench", embeddingModel: "scripted-embed", dimensions: dims },
    });
    const doc = await db().kbDocument.create({
      data: {
        workspaceId: user.id,
        collectionId: coll.id,
        name: "synthetic",
        format: "text",
        mimeType: "text/plain",
        sizeBytes: 0,
        sha256: "x",
        text: "",
      },
    });
    let have = 0;
    console.log(`dims=${dims}; median of 7 searches after 2 warm-ups (hybrid / vector only / text only)`);
    for (const n of sizes) {
      const t0 = performance.now();
      await db().$executeRawUnsafe(
        `
        INSERT INTO "KbChunk" (id, "documentId", "collectionId", ordinal, text, "startOffset", "endOffset", tokens, embedding, "embeddingBits", tsv)
        SELECT md5(g::text || random()::text), $1, $2, g, t.text, 0, 0, 200, v.emb,
               (SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i) FROM unnest(v.emb) WITH ORDINALITY z(x, i))::varbit,
               to_tsvector('english', t.text)
        FROM generate_series($3::int, $4::int) g
        CROSS JOIN LATERAL (SELECT array_agg((random() - 0.5)::real) AS emb FROM generate_series(1, ${dims}) d WHERE g IS NOT NULL) v
        CROSS JOIN LATERAL (SELECT string_agg('w' || (floor(random() * 2000))::int, ' ') AS text FROM generate_series(1, 150) w WHERE g IS NOT NULL) t`,
        doc.id,
        coll.id,
        have,
        n - 1,
      );
      await db().$executeRawUnsafe(`ANALYZE "KbChunk"`);
      const loadMs = performance.now() - t0;
      have = n;
      const timed = async (mode: "hybrid" | "vector" | "text") => {
        const runs: number[] = [];
        for (let i = 0; i < 9; i++) {
          const s = performance.now();
          await searchKnowledge(user.id, {
            query: `w${i * 7} w${i * 13} quarterly revenue`,
            collections: ["bench"],
            k: 5,
            mode,
          });
          runs.push(performance.now() - s);
        }
        return runs.slice(2).sort((a, b) => a - b)[3]!;
      };
      const [h, v, t] = [await timed("hybrid"), await timed("vector"), await timed("text")];
      // Recall@5 of the sign-bit prefilter: the vector search's top 5 vs an exact scan of every chunk.
      let found = 0;
      const queries = 5;
      for (let i = 0; i < queries; i++) {
        const query = `recall probe ${i} w${i * 31}`;
        const got = await searchKnowledge(user.id, { query, collections: ["bench"], k: 5, mode: "vector" });
        const { vectors } = await embedTexts([query]);
        const exact = await db().$queryRawUnsafe<{ id: string }[]>(
          `SELECT c.id FROM "KbChunk" c CROSS JOIN LATERAL (SELECT sum(a * b) AS s FROM unnest(c.embedding, $1::real[]) u(a, b)) x WHERE c."collectionId" = $2 ORDER BY x.s DESC LIMIT 5`,
          vectors[0],
          coll.id,
        );
        const ids = new Set(got.map((g) => g.chunkId));
        found += exact.filter((e) => ids.has(e.id)).length;
      }
      console.log(
        `${String(n).padStart(7)} chunks: hybrid ${h.toFixed(0)} ms, vector ${v.toFixed(0)} ms, text ${t.toFixed(0)} ms, vector recall@5 ${(found / (queries * 5)).toFixed(2)} (load ${(loadMs / 1000).toFixed(1)} s)`,
      );
    }
  } finally {
    await model.close();
    await disconnectDb();
    await dropTestDatabase(database.name);
  }
}

void main();
