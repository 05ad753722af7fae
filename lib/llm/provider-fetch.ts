import "server-only";
import { envSchema } from "@/lib/env";
import { pinnedFetch } from "@/lib/net";

/**
 * How calls reach a model provider a USER configured (a provider row's base URL; the operator's
 * OPENAI_BASE_URL and the scripted server are the operator's choice and go out as they are):
 * through the tools' SSRF guard with the resolved address pinned, no redirects, and private or
 * loopback addresses refused unless the operator allows them (WEFT_PROVIDER_ALLOW_PRIVATE; on for
 * the local setup, where Ollama and LM Studio run, off in the Docker profile).
 */

/** True when users' providers may reach private and loopback addresses. */
export function providersMayReachPrivate(source: Record<string, string | undefined> = process.env): boolean {
  return envSchema.shape.WEFT_PROVIDER_ALLOW_PRIVATE.parse(source.WEFT_PROVIDER_ALLOW_PRIVATE || undefined);
}

/** What a step or the designer is told when the guard refuses a provider's address (never which address it resolved to). */
export const PROVIDER_ADDRESS_REFUSED =
  "The provider's base URL points at a private or loopback address, which this server does not allow (the operator can allow it with WEFT_PROVIDER_ALLOW_PRIVATE=1).";

/** The guard refused a provider's address: permanent, not worth a retry. */
export class ProviderAddressRefused extends Error {
  constructor() {
    super(PROVIDER_ADDRESS_REFUSED);
    this.name = "ProviderAddressRefused";
  }
}

const refused = () => new ProviderAddressRefused();
const byPolicy = new Map<boolean, typeof fetch>();

/**
 * The fetch the OpenAI client uses for a user's provider. WEFT_PROVIDER_ALLOW_PRIVATE is read at
 * each call, so a client built earlier follows the setting the process has now.
 */
export const providerFetch: typeof fetch = (input, init) => {
  const allowPrivate = providersMayReachPrivate();
  let f = byPolicy.get(allowPrivate);
  if (!f) byPolicy.set(allowPrivate, (f = pinnedFetch({ allowPrivate, maxRedirects: 0 }, refused)));
  return f(input, init);
};
