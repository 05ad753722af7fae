import { describe, expect, it } from "vitest";
import { refuseCrossSite } from "./same-origin";

const post = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/thing", {
    method: "POST",
    headers: { host: "localhost:3000", ...headers },
    body: "{}",
  });

describe("refuseCrossSite (W4)", () => {
  it("lets a same-origin JSON POST through", () => {
    expect(refuseCrossSite(post({ origin: "http://localhost:3000", "content-type": "application/json" }))).toBeNull();
    expect(refuseCrossSite(post({ "content-type": "application/json", "sec-fetch-site": "same-origin" }))).toBeNull();
  });
  it("refuses another origin, an opaque origin and cross-site fetch metadata", async () => {
    const cases: Record<string, string>[] = [
      { origin: "http://evil.example" },
      { origin: "null" },
      { "sec-fetch-site": "cross-site" },
      { origin: "http://localhost:3001" },
    ];
    for (const headers of cases) {
      const res = refuseCrossSite(post({ ...headers, "content-type": "application/json" }));
      expect(res?.status, JSON.stringify(headers)).toBe(403);
    }
  });
  it("refuses text/plain always and form bodies unless allowed", () => {
    expect(refuseCrossSite(post({ "content-type": "text/plain;charset=UTF-8" }))?.status).toBe(403);
    expect(refuseCrossSite(post({ "content-type": "text/plain" }), { allowForm: true })?.status).toBe(403);
    expect(refuseCrossSite(post({ "content-type": "application/x-www-form-urlencoded" }))?.status).toBe(403);
    expect(
      refuseCrossSite(post({ "content-type": "application/x-www-form-urlencoded" }), { allowForm: true }),
    ).toBeNull();
  });
});
