import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * AES-256-GCM for secrets at rest (provider API keys).
 * Format: `v1.<keyId>.<iv b64>.<tag b64>.<ciphertext b64>`; the key id lets old rows decrypt after rotation.
 * The associated data binds a ciphertext to its row (e.g. `provider:<id>:<workspaceId>`), so a value
 * copied into another row fails to decrypt.
 */
export interface Keyring {
  currentId: string;
  keys: Map<string, Buffer>;
}

export class DecryptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DecryptError";
  }
}

/** Builds a keyring from the current key and optional retired `id:base64` pairs. */
export function makeKeyring(currentId: string, currentKeyB64: string, oldKeys?: string): Keyring {
  const keys = new Map<string, Buffer>();
  for (const pair of (oldKeys ?? "").split(",").filter(Boolean)) {
    const [id, b64] = pair.split(":");
    if (id && b64) keys.set(id, Buffer.from(b64, "base64"));
  }
  keys.set(currentId, Buffer.from(currentKeyB64, "base64"));
  for (const [id, key] of keys) {
    if (key.length !== 32) throw new Error(`encryption key ${id} must be 32 bytes`);
  }
  return { currentId, keys };
}

/** Encrypts `plaintext` with the keyring's current key, bound to `aad`. */
export function encryptSecret(ring: Keyring, plaintext: string, aad: string): string {
  const key = ring.keys.get(ring.currentId);
  if (!key) throw new Error("current encryption key missing");
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", ring.currentId, iv.toString("base64"), tag.toString("base64"), ct.toString("base64")].join(".");
}

/** Decrypts a value from encryptSecret; throws DecryptError on tampering, wrong aad or unknown key. */
export function decryptSecret(ring: Keyring, blob: string, aad: string): string {
  const parts = blob.split(".");
  if (parts.length !== 5 || parts[0] !== "v1") throw new DecryptError("unrecognised ciphertext format");
  const [, keyId, ivB64, tagB64, ctB64] = parts as [string, string, string, string, string];
  const key = ring.keys.get(keyId);
  if (!key) throw new DecryptError(`no key with id ${keyId}`);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(ivB64, "base64"));
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(Buffer.from(tagB64, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(ctB64, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new DecryptError("ciphertext failed authentication (tampered, wrong key or wrong row)");
  }
}

/** Re-encrypts with the current key (rotation); a no-op result if already current. */
export function rotateSecret(ring: Keyring, blob: string, aad: string): string {
  return encryptSecret(ring, decryptSecret(ring, blob, aad), aad);
}

/** Last four characters for display; the rest never leaves the server. */
export const lastFour = (secret: string): string => secret.slice(-4);
