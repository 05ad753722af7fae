import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "@/lib/db/api-tokens";
import { resetEnvCache } from "@/lib/env";
import { createProvider } from "@/lib/providers/settings";
import { useTestDatabase } from "@/test/db";
import { createTestUser } from "@/test/fixtures";
import { GET } from "./route";

useTestDatabase();

/** An OpenAI-compatible /v1/models that wants its key and counts how often it is asked. */
let server: Server;
let baseUrl = "";
let hits = 0;
const KEY = "sk-models-key-1234";

beforeAll(async () => {
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
  resetEnvCache();
  server = createServer((req, res) => {
    if (req.url !== "/v1/models") return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401).end('{"error":"nope"}');
    hits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ id: "zeta-8b" }, { id: "alpha-70b" }, { id: "zeta-8b" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  resetEnvCache();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const get = async (token: string, id: string, refresh = false) => {
  const res = await GET(
    new Request(`http://localhost/api/providers/${id}/models${refresh ? "?refresh=1" : ""}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({ id }) },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("GET /api/providers/:id/models (the model picker)", () => {
  it("lists a provider's models with its key, keeps the list, refreshes on request; others' providers are 404", async () => {
    const owner = await createTestUser();
    const token = (await createApiToken(owner.id, owner.id, "picker")).token;
    const p = await createProvider(owner.id, { name: "local", baseUrl, defaultModel: "alpha-70b", apiKey: KEY });

    expect(await get("weft_not-a-token", p.id)).toMatchObject({ status: 401 });
    const first = await get(token, p.id);
    expect(first).toEqual({
      status: 200,
      body: { models: ["alpha-70b", "zeta-8b"], defaultModel: "alpha-70b", cached: false },
    });
    expect((await get(token, "local")).body).toMatchObject({ cached: true }); // by name, from the kept list
    expect(hits).toBe(1);
    expect((await get(token, p.id, true)).body).toMatchObject({ models: ["alpha-70b", "zeta-8b"], cached: false });
    expect(hits).toBe(2);

    const stranger = await createTestUser();
    const theirs = (await createApiToken(stranger.id, stranger.id, "picker")).token;
    expect(await get(theirs, p.id)).toMatchObject({ status: 404 });
    expect(JSON.stringify(first.body)).not.toContain(KEY);
  });

  it("an endpoint that refuses the key answers 502 by status only, and is not kept", async () => {
    const owner = await createTestUser();
    const token = (await createApiToken(owner.id, owner.id, "picker")).token;
    const p = await createProvider(owner.id, { name: "wrong", baseUrl, defaultModel: "m", apiKey: "sk-wrong" });
    const refused = await get(token, p.id);
    expect(refused).toEqual({
      status: 502,
      body: { error: { code: "bad_gateway", message: "The endpoint refused the key (HTTP 401).", details: null } },
    });
    expect((await get(token, p.id)).body).not.toMatchObject({ cached: true });
  });

  it("default: the owner's default chain (here the scripted model, without providers)", async () => {
    const owner = await createTestUser();
    const token = (await createApiToken(owner.id, owner.id, "picker")).token;
    const { startScriptedServer } = await import("@/lib/llm/scripted/server");
    const scripted = await startScriptedServer({ fixtures: [] });
    const before = process.env.WEFT_SCRIPTED_MODEL_PORT;
    process.env.WEFT_SCRIPTED_MODEL_PORT = String(scripted.port);
    resetEnvCache();
    try {
      const list = await get(token, "default");
      expect(list.status).toBe(200);
      expect(list.body.models).toContain("scripted-demo");
    } finally {
      if (before === undefined) delete process.env.WEFT_SCRIPTED_MODEL_PORT;
      else process.env.WEFT_SCRIPTED_MODEL_PORT = before;
      resetEnvCache();
      await scripted.close();
    }
  });
});
