import "server-only";
import { hash, verify } from "@node-rs/argon2";

// argon2id (Algorithm.Argon2id = 2) with OWASP's minimum: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes a password with argon2id; the PHC string carries its own salt and parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// A real hash of a random string, so unknown emails cost as much as wrong passwords (no timing oracle).
let dummy: Promise<string> | undefined;

/** True when `password` matches `passwordHash`; with no hash it still spends the same time and answers false. */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummy ??= hashPassword(crypto.randomUUID());
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
