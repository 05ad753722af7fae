import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

const good = {
  AUTH_SECRET: "x".repeat(32),
  WEFT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64"),
};

function failure(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (e) {
    if (e instanceof EnvError) return e;
    throw e;
  }
  throw new Error("expected parseEnv to throw");
}

describe("parseEnv", () => {
  it("applies defaults that work on a machine with local PostgreSQL and Redis", () => {
    const env = parseEnv(good);
    expect(env.DATABASE_URL).toBe("postgresql://postgres@127.0.0.1:5432/weft");
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.WEFT_ENCRYPTION_KEY_ID).toBe("k1");
  });

  it("names a missing variable and says how to set it", () => {
    const err = failure({ WEFT_ENCRYPTION_KEY: good.WEFT_ENCRYPTION_KEY });
    expect(err.variables).toEqual(["AUTH_SECRET"]);
    expect(err.message).toMatch(/AUTH_SECRET is missing\. How: run `npm run up` once/);
  });

  it("names a malformed variable with the reason", () => {
    const err = failure({ ...good, DATABASE_URL: "mysql://localhost/weft", WEFT_ENCRYPTION_KEY: "c2hvcnQ=" });
    expect(err.variables.sort()).toEqual(["DATABASE_URL", "WEFT_ENCRYPTION_KEY"]);
    expect(err.message).toContain("DATABASE_URL must be a URL starting with postgresql: or postgres:");
    expect(err.message).toContain("WEFT_ENCRYPTION_KEY must be 32 bytes encoded in base64");
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ ...good, REDIS_URL: "" }).REDIS_URL).toBe("redis://127.0.0.1:6379");
  });

  it("rejects a malformed retired-keys list", () => {
    expect(failure({ ...good, WEFT_ENCRYPTION_OLD_KEYS: "nocolon" }).variables).toEqual(["WEFT_ENCRYPTION_OLD_KEYS"]);
  });

  it("parses the tools variables: stdio MCP off unless enabled, search URL checked", () => {
    const base = parseEnv(good);
    expect(base.WEFT_MCP_ALLOW_STDIO).toBe(false);
    expect(base.WEFT_SEARCH_URL).toBeUndefined();
    const on = parseEnv({
      ...good,
      WEFT_MCP_ALLOW_STDIO: "1",
      WEFT_SEARCH_URL: "http://127.0.0.1:8888",
      WEFT_SANDBOX_CHILD: "/srv/child.mjs",
    });
    expect(on).toMatchObject({
      WEFT_MCP_ALLOW_STDIO: true,
      WEFT_SEARCH_URL: "http://127.0.0.1:8888",
      WEFT_SANDBOX_CHILD: "/srv/child.mjs",
    });
    expect(failure({ ...good, WEFT_SEARCH_URL: "searx.local" }).message).toMatch(
      /WEFT_SEARCH_URL must be a URL.*How: set WEFT_SEARCH_URL/,
    );
    expect(failure({ ...good, WEFT_MCP_ALLOW_STDIO: "maybe" }).variables).toEqual(["WEFT_MCP_ALLOW_STDIO"]);
  });
});
