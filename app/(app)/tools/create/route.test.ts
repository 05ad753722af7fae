import { describe, expect, it } from "vitest";
import { POST } from "./route";

const post = (
  headers: Record<string, string>,
  body = JSON.stringify({ request: "a tool that adds two numbers together" }),
) =>
  new Request("http://localhost:3000/tools/create", {
    method: "POST",
    headers: { host: "localhost:3000", ...headers },
    body,
  });

describe("POST /tools/create", () => {
  it("finding 7: a cross-site request is refused before the session is read (Origin, Sec-Fetch-Site, text/plain)", async () => {
    const attacks: Record<string, string>[] = [
      { origin: "http://evil.example", "content-type": "application/json" },
      { origin: "http://localhost:3001", "content-type": "application/json" },
      { "sec-fetch-site": "same-site", "content-type": "application/json" },
      { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      { "content-type": "text/plain;charset=UTF-8" },
      { "content-type": "application/x-www-form-urlencoded" },
    ];
    for (const headers of attacks) {
      const res = await POST(post(headers));
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toEqual({ error: "Cross-site request refused." });
    }
  });
});
