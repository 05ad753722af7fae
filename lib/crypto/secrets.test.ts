import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DecryptError, decryptSecret, encryptSecret, lastFour, makeKeyring, rotateSecret } from "./secrets";

const k = () => randomBytes(32).toString("base64");

describe("secrets (AES-256-GCM)", () => {
  const ring = makeKeyring("k1", k());

  it("round-trips and never stores the plaintext", () => {
    const blob = encryptSecret(ring, "sk-live-canary-1234", "provider:p1:u1");
    expect(blob).not.toContain("canary");
    expect(blob.startsWith("v1.k1.")).toBe(true);
    expect(decryptSecret(ring, blob, "provider:p1:u1")).toBe("sk-live-canary-1234");
  });

  it("uses a fresh IV each time", () => {
    expect(encryptSecret(ring, "same", "a")).not.toBe(encryptSecret(ring, "same", "a"));
  });

  it("fails on tampered ciphertext", () => {
    const parts = encryptSecret(ring, "secret-value", "row").split(".");
    const ct = Buffer.from(parts[4]!, "base64");
    ct[0] = ct[0]! ^ 1;
    parts[4] = ct.toString("base64");
    expect(() => decryptSecret(ring, parts.join("."), "row")).toThrow(DecryptError);
  });

  it("fails on a tampered tag", () => {
    const parts = encryptSecret(ring, "secret-value", "row").split(".");
    parts[3] = Buffer.alloc(16).toString("base64");
    expect(() => decryptSecret(ring, parts.join("."), "row")).toThrow(/failed authentication/);
  });

  it("fails when the associated data (the row) differs", () => {
    const blob = encryptSecret(ring, "secret-value", "provider:p1:u1");
    expect(() => decryptSecret(ring, blob, "provider:p2:u1")).toThrow(DecryptError);
  });

  it("rotates: old rows decrypt with a retired key and re-encrypt under the new one", () => {
    const oldKey = k();
    const oldRing = makeKeyring("k0", oldKey);
    const blob = encryptSecret(oldRing, "rotate-me", "row");
    const newRing = makeKeyring("k1", k(), `k0:${oldKey}`);
    expect(decryptSecret(newRing, blob, "row")).toBe("rotate-me");
    const rotated = rotateSecret(newRing, blob, "row");
    expect(rotated.split(".")[1]).toBe("k1");
    expect(() => decryptSecret(makeKeyring("k1", k()), blob, "row")).toThrow(/no key with id k0/);
  });

  it("shows only the last four characters", () => {
    expect(lastFour("sk-abcdef9876")).toBe("9876");
  });
});
