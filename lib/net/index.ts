/** Outbound network for tools: the SSRF guard (X4). */
export { isPrivateAddress } from "./ip";
export { checkTarget, NetRefusedError, type CheckedTarget, type NetPolicy, type Resolver } from "./guard";
export { guardedFetch, type GuardedRequest, type GuardedResponse } from "./fetch";
export { pinnedFetch } from "./pinned-fetch";
