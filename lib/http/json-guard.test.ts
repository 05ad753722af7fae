import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { badTextReason, checkJsonValue, jsonLimits, parseJsonText, readJsonBody } from "./json-guard";

const post = (body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) =>
  new Request("http://localhost/api/x", {
    method: "POST",
    headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`);
  return err;
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("readJsonBody", () => {
  const limits = { maxBytes: 2048, maxDepth: 8 };

  it("parses a JSON body and answers {} for an empty one", async () => {
    expect(await readJsonBody(post('{"a":[1,{"b":"ü"}]}'), { limits })).toEqual({ a: [1, { b: "ü" }] });
    expect(await readJsonBody(post(null, {}), { limits })).toEqual({});
  });

  it("413 when Content-Length or the streamed body passes the limit, naming the limit", async () => {
    const declared = await refusal(
      readJsonBody(post("{}", { "content-type": "application/json", "content-length": "999999" }), { limits }),
    );
    expect(declared.status).toBe(413);
    expect(declared.message).toContain("2 KB");
    expect(declared.message).toContain("WEFT_JSON_MAX_BYTES");
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new TextEncoder().encode(`"${"x".repeat(1000)}",`));
      },
    });
    const streamed = await refusal(readJsonBody(post(endless), { limits }));
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it("415 for a body that is not declared as JSON", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const err = await refusal(readJsonBody(post("{}", { "content-type": type }), { limits }));
      expect(err.status, type).toBe(415);
      expect(err.message).toContain("application/json");
    }
    expect(
      await readJsonBody(post('{"ok":1}', { "content-type": "application/merge-patch+json" }), { limits }),
    ).toEqual({ ok: 1 });
  });

  it("400 for malformed JSON, bad UTF-8, deep nesting, NUL and lone surrogates", async () => {
    const cases: Array<[BodyInit, RegExp]> = [
      ['{"a":', /not valid JSON/],
      [new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), /not valid UTF-8/],
      [nested(9), /deeper than 8 levels.*WEFT_JSON_MAX_DEPTH/],
      ['{"a":"x\\u0000y"}', /\$\.a contains a NUL/],
      ['{"a":["\\ud800"]}', /\$\.a\[0\] contains an unpaired UTF-16 surrogate/],
      ['{"\\udc00":1}', /key .*unpaired/],
    ];
    for (const [body, message] of cases) {
      const err = await refusal(readJsonBody(post(body), { limits }));
      expect(err.status, String(body)).toBe(400);
      expect(err.message).toMatch(message);
    }
  });

  it("a depth check on the text stops a body JSON.parse itself could not survive", () => {
    const err = (() => {
      try {
        parseJsonText(nested(500_000), { maxBytes: 2_000_000, maxDepth: 64 });
      } catch (e) {
        return e as AppError;
      }
    })();
    expect(err?.status).toBe(400);
    expect(err?.message).toContain("deeper than 64");
  });
});

describe("checkJsonValue and badTextReason", () => {
  it("accept paired surrogates (emoji) and refuse what PostgreSQL refuses", () => {
    expect(() => checkJsonValue({ text: "ok 😀 \u2028" })).not.toThrow();
    expect(badTextReason("😀")).toBeNull();
    expect(badTextReason("\u0000")).toMatch(/NUL/);
    expect(badTextReason("a\udbffb")).toMatch(/surrogate/);
    expect(badTextReason("\udc00")).toMatch(/surrogate/);
  });

  it("counts depth iteratively on values built in code", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => checkJsonValue(deep, 64)).toThrow(/deeper than 64/);
  });
});

describe("jsonLimits", () => {
  it("reads WEFT_JSON_MAX_BYTES and WEFT_JSON_MAX_DEPTH with 1 MiB and 64 as defaults", () => {
    expect(jsonLimits({})).toEqual({ maxBytes: 1_048_576, maxDepth: 64 });
    expect(jsonLimits({ WEFT_JSON_MAX_BYTES: "4096", WEFT_JSON_MAX_DEPTH: "10" })).toEqual({
      maxBytes: 4096,
      maxDepth: 10,
    });
    expect(() => jsonLimits({ WEFT_JSON_MAX_DEPTH: "1" })).toThrow();
  });
});
