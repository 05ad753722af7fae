import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProvider, listProviders } from "@/lib/db/providers";
import { createUser } from "@/lib/db/users";
import { useTestDatabase } from "@/test/db";
import { createProvider, updateProvider } from "./settings";

useTestDatabase();

beforeAll(() => {
  process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
});
afterAll(() => {
  delete process.env.WEFT_PROVIDER_ALLOW_PRIVATE;
});

const CANARY = "sk-canary-7f3e9b1d2c4a5e6f";
const user = (tag: string) =>
  createUser({ email: `${tag}-${Date.now()}@example.com`, name: tag, password: "correct horse battery" });

describe("provider base URLs (finding 1)", () => {
  const hostile = [
    "http://127.0.0.1:11434/v1",
    "http://localhost:1234/v1",
    "http://[::1]:8080/v1",
    "http://10.0.0.5/v1",
    "http://192.168.1.20:11434/v1",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/v1",
    "http://[fd00::1]/v1",
    "http://[::ffff:127.0.0.1]/v1",
    "http://2130706433/v1",
    "http://0x7f.1/v1",
  ];

  it("finding 1: a private, loopback or link-local base URL is refused at save unless WEFT_PROVIDER_ALLOW_PRIVATE is set", async () => {
    const a = await user("guard");
    process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "0";
    try {
      for (const [i, baseUrl] of hostile.entries()) {
        await expect(
          createProvider(a.id, { name: `p${i}`, baseUrl, defaultModel: "m", apiKey: CANARY }),
          baseUrl,
        ).rejects.toMatchObject({
          code: "bad_request",
          message: expect.stringContaining("WEFT_PROVIDER_ALLOW_PRIVATE"),
          details: { field: "baseUrl" },
        });
      }
      await expect(
        createProvider(a.id, { name: "creds", baseUrl: "https://user:pw@api.example.com/v1", defaultModel: "m" }),
      ).rejects.toMatchObject({ code: "bad_request" });
      expect(await listProviders(a.id)).toEqual([]);
      const pub = await createProvider(a.id, {
        name: "public",
        baseUrl: "https://93.184.215.14/v1",
        defaultModel: "m",
      });
      await expect(updateProvider(a.id, pub.id, { baseUrl: "http://127.0.0.1:4010/v1" })).rejects.toMatchObject({
        details: { field: "baseUrl" },
      });
      expect((await getProvider(a.id, pub.id))?.baseUrl).toBe("https://93.184.215.14/v1");
    } finally {
      process.env.WEFT_PROVIDER_ALLOW_PRIVATE = "1";
    }
    // the local setup (npm run up) allows them: Ollama and LM Studio run there
    const local = await createProvider(a.id, {
      name: "Ollama",
      baseUrl: "http://127.0.0.1:11434/v1",
      defaultModel: "llama3",
    });
    expect(local.baseUrl).toBe("http://127.0.0.1:11434/v1");
  });
});
