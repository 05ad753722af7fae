import { describe, expect, it } from "vitest";
import { embeddingSetup, normalise, queryPlanes, signBits } from "./embeddings";

describe("embeddingSetup", () => {
  it("defaults to the scripted server's embeddings", () => {
    expect(embeddingSetup({ WEFT_SCRIPTED_MODEL_PORT: "4999" })).toEqual({
      config: { baseURL: "http://127.0.0.1:4999/v1", apiKey: "scripted", model: "scripted-embed" },
    });
  });

  it("uses the app's OpenAI-compatible provider with text-embedding-3-small", () => {
    expect(embeddingSetup({ OPENAI_BASE_URL: "http://llm.test/v1", OPENAI_API_KEY: "k" }).config).toEqual({
      baseURL: "http://llm.test/v1",
      apiKey: "k",
      model: "text-embedding-3-small",
    });
  });

  it("WEFT_EMBEDDING_* wins, with model and dimensions", () => {
    const s = embeddingSetup({
      OPENAI_API_KEY: "k",
      WEFT_EMBEDDING_BASE_URL: "http://emb.test/v1",
      WEFT_EMBEDDING_MODEL: "nomic-embed-text",
      WEFT_EMBEDDING_DIMENSIONS: "512",
    });
    expect(s).toEqual({ config: { baseURL: "http://emb.test/v1", model: "nomic-embed-text" }, dimensions: 512 });
  });
});

describe("normalise", () => {
  it("scales to unit length and leaves zero vectors alone", () => {
    expect(normalise([3, 4])).toEqual([0.6, 0.8]);
    expect(normalise([0, 0])).toEqual([0, 0]);
  });
});

describe("queryPlanes", () => {
  it("plane popcounts give the 4-bit-quantised query's dot product with a chunk's sign bits", () => {
    const q = [0.9, -0.3, 0.05, -0.9, 0.45, 0, 0.2, -0.6];
    const { pos, neg } = queryPlanes(q);
    const count = (a: string, b: string) => [...a].filter((c, i) => c === "1" && b[i] === "1").length;
    for (const d of [
      [1, 1, 1, 1, 1, 1, 1, 1],
      [1, -1, 0.2, -1, 1, 0, -1, 1],
      [-1, 1, -1, 1, -1, 1, 1, -1],
    ]) {
      const bits = signBits(d);
      const viaPlanes = pos.reduce((s, p, l) => s + 2 ** l * (count(bits, p) - count(bits, neg[l]!)), 0);
      const quantised = q.map((x) => Math.sign(x) * Math.round((Math.abs(x) / 0.9) * 15));
      const direct = quantised.reduce((s, x, i) => s + (bits[i] === "1" ? x : 0), 0);
      expect(viaPlanes).toBe(direct);
    }
  });
});
