import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chat } from "./invoke";
import type { ModelConfig } from "./models";
import { ProviderError } from "./retry";

/** A loopback HTTP server that records what reached it; `answer` decides the reply. */
async function server(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: { url: string; authorization: string | undefined }[] = [];
  const s = http.createServer((req, res) => {
    hits.push({ url: req.url ?? "", authorization: req.headers.authorization });
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url, hits, close: () => new Promise<void>((r) => s.close(() => r())) };
}

const SECRET_BODY = "INTERNAL-ADMIN-PAGE-4c1e";
let elsewhere: Awaited<ReturnType<typeof server>>;
let redirector: Awaited<ReturnType<typeof server>>;
let talker: Awaited<ReturnType<typeof server>>;

beforeAll(async () => {
  elsewhere = await server((_req, res) => res.end("{}"));
  redirector = await server((_req, res) => {
    res.writeHead(302, { location: `${elsewhere.url}/v1/chat/completions` });
    res.end();
  });
  talker = await server((_req, res) => {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error: { message: `${SECRET_BODY}: you are not an OpenAI endpoint`, type: "weird", code: SECRET_BODY },
      }),
    );
  });
});
afterAll(async () => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
  await Promise.all([elsewhere.close(), redirector.close(), talker.close()]);
});

/** A user's provider config (a provider row's base URL), as the model resolver builds it. */
const userProvider = (baseURL: string): ModelConfig => ({
  baseURL: `${baseURL}/v1`,
  model: "m",
  apiKey: "sk-stored-key-9d2a",
  userEndpoint: true,
});

async function failure(config: ModelConfig): Promise<ProviderError> {
  const err = await chat({ config, messages: [{ role: "user", content: "hi" }], retry: { maxAttempts: 1 } }).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(err)}`);
  return err;
}

describe("calls to a user's model provider (finding 1)", () => {
  it("finding 1: the address is checked again at call time: a loopback provider stored earlier gets no request and no key", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "0";
    const err = await failure(userProvider(talker.url));
    expect(err.kind).toBe("bad_request");
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("WEFT_PROVIDER_ALLOW_PRIVATE");
    expect(err.message).not.toContain("127.0.0.1");
    expect(talker.hits).toEqual([]);
  });

  it("finding 1: a redirect is never followed (the stored key goes nowhere else)", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
    const err = await failure(userProvider(redirector.url));
    expect(err.status).toBe(302);
    expect(redirector.hits).toHaveLength(1);
    expect(elsewhere.hits).toEqual([]);
  });

  it("finding 1: the provider's error body is never shown, only a status summary", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
    const err = await failure(userProvider(talker.url));
    expect(err).toMatchObject({
      kind: "bad_request",
      status: 400,
      message: "the provider refused the request (HTTP 400)",
    });
    expect(JSON.stringify({ message: err.message, stack: err.stack })).not.toContain(SECRET_BODY);
    expect(talker.hits.at(-1)?.authorization).toBe("Bearer sk-stored-key-9d2a");
  });

  it("the operator's own endpoints (not userEndpoint) are not held to the provider guard", async () => {
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "0";
    const before = talker.hits.length;
    const err = await failure({ ...userProvider(talker.url), userEndpoint: undefined });
    expect(err.status).toBe(400);
    expect(talker.hits.length).toBe(before + 1);
  });
});
