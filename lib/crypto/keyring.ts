import "server-only";
import { env } from "@/lib/env";
import { makeKeyring, type Keyring } from "./secrets";

let ring: Keyring | undefined;

/** The process keyring from WEFT_ENCRYPTION_KEY(_ID) and WEFT_ENCRYPTION_OLD_KEYS. */
export function keyring(): Keyring {
  const e = env();
  ring ??= makeKeyring(e.WEFT_ENCRYPTION_KEY_ID, e.WEFT_ENCRYPTION_KEY, e.WEFT_ENCRYPTION_OLD_KEYS);
  return ring;
}
