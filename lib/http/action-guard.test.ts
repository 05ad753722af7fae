import { describe, expect, it } from "vitest";
import { checkServerActionRequest, isServerActionRequest } from "./action-guard";

const limits = { maxBytes: 4096, maxDepth: 8 };

function action(body: string | Uint8Array, headers: Record<string, string> = {}): Request {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return new Request("http://localhost/settings", {
    method: "POST",
    headers: {
      "next-action": "abc123",
      "content-type": "text/plain;charset=UTF-8",
      "content-length": String(bytes.byteLength),
      ...headers,
    },
    body: bytes as BodyInit,
  });
}

function multipart(fields: Record<string, string>): Request {
  const boundary = "----WeftFormBoundaryXy";
  const body =
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("") + `--${boundary}--\r\n`;
  return action(body, { "content-type": `multipart/form-data; boundary=${boundary}` });
}

async function refused(request: Request) {
  const res = await checkServerActionRequest(request, limits);
  if (!res) throw new Error("expected a refusal");
  return { status: res.status, body: (await res.json()) as { error: { code: string; message: string } } };
}

describe("server action guard", () => {
  it("knows a server action: Next-Action, or a multipart POST", () => {
    expect(isServerActionRequest(action("[]"))).toBe(true);
    expect(
      isServerActionRequest(
        new Request("http://l/x", {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=a" },
          body: "",
        }),
      ),
    ).toBe(true);
    expect(
      isServerActionRequest(
        new Request("http://l/x", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
      ),
    ).toBe(false);
    expect(isServerActionRequest(new Request("http://l/x"))).toBe(false);
  });

  it("lets a well-formed payload through (JSON rows and form fields)", async () => {
    expect(await checkServerActionRequest(action('["wf_1",{"nodes":[{"id":"a"}]}]'), limits)).toBeNull();
    expect(await checkServerActionRequest(multipart({ "1_name": "Ünïcode 😀", "0": '["$K1"]' }), limits)).toBeNull();
  });

  it("411 without Content-Length and 413 past the limit, naming it", async () => {
    const noLength = await refused(
      new Request("http://l/x", { method: "POST", headers: { "next-action": "a" }, body: "[]" }),
    );
    expect(noLength.status).toBe(411);
    const big = await refused(action(`["${"x".repeat(5000)}"]`));
    expect(big.status).toBe(413);
    expect(big.body.error.message).toContain("WEFT_JSON_MAX_BYTES");
  });

  it("400 for bad UTF-8, deep nesting, NUL and lone surrogates (raw or escaped), in any field", async () => {
    const cases: Array<[Request, RegExp]> = [
      [action(new Uint8Array([0x5b, 0x22, 0xc3, 0x28, 0x22, 0x5d])), /not valid UTF-8/],
      [action("[".repeat(9) + "]".repeat(9)), /deeper than 8 levels/],
      [action('["a\\u0000b"]'), /NUL/],
      [action('[{"k":"\\udfff"}]'), /unpaired UTF-16 surrogate/],
      [multipart({ "1_name": "x\u0000y" }), /field "1_name" contains a NUL/],
      [multipart({ "0": '[{"a":[[[[[[[[["deep"]]]]]]]]]}]' }), /deeper than 8/],
    ];
    for (const [request, message] of cases) {
      const r = await refused(request);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
  });

  it("400 for a fetch action whose arguments are not React's JSON rows (Next's decoder would answer 500)", async () => {
    for (const request of [
      action('["wf",{"name":'),
      action("name=x"),
      multipart({ "1_name": "x" }),
      multipart({ "0": "[oops", "1_name": "x" }),
    ]) {
      const r = await refused(request);
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("not in the encoding the app sends");
    }
  });

  it("415 for a file in an action's form data", async () => {
    const boundary = "----WeftFormBoundaryFile";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="x.bin"\r\nContent-Type: application/octet-stream\r\n\r\nabc\r\n--${boundary}--\r\n`;
    const r = await refused(action(body, { "content-type": `multipart/form-data; boundary=${boundary}` }));
    expect(r.status).toBe(415);
  });
});
