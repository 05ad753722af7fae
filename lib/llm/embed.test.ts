import { afterAll, beforeAll, expect, it } from "vitest";
import { embed } from "./embed";
import { SCRIPTED_EMBEDDING_MODEL } from "./models";
import { cosine } from "./scripted/embeddings";
import { startScriptedServer, type ScriptedServer } from "./scripted/server";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

it("embeds deterministically; shared words score higher than unrelated text", async () => {
  const config = { baseURL: server.url, model: SCRIPTED_EMBEDDING_MODEL };
  const docs = ["Refund policy: refunds within 30 days", "Shipping takes 5 business days", "refund policy"];
  const a = await embed({ config, texts: docs });
  const b = await embed({ config, texts: docs });
  expect(a.vectors).toEqual(b.vectors);
  expect(a.vectors[0]).toHaveLength(256);
  const [refund, shipping, query] = a.vectors;
  expect(cosine(query!, refund!)).toBeGreaterThan(cosine(query!, shipping!));
  expect(a.usage.promptTokens).toBeGreaterThan(0);
  const small = await embed({ config, texts: ["x"], dimensions: 32 });
  expect(small.vectors[0]).toHaveLength(32);
});
