import "server-only";
import type { ToolVersionRow } from "@/lib/db/tools";
import type { NetPolicy } from "@/lib/net";
import {
  listMcpTools,
  mcpServerConfigSchema,
  withCredential,
  type McpServerConfig,
  type McpToolInfo,
} from "./connection";

/**
 * The tools of external MCP servers as catalogs show them (the designer's registered tools, the
 * agent editor's tool list), kept per process: a listing opens a connection — a stdio server is a
 * new process — so listing every server on every designer request or page render is slow, and one
 * unreachable server would stall each of them. Keyed by owner and the approved config's hash, so a
 * newly approved or changed server is listed at once; a server's own tool changes show within
 * `maxAgeMs`. A failed listing is remembered for `failureMaxAgeMs` and answered with its error,
 * so a dead server costs one timeout per that period, not one per request. Concurrent callers
 * share one listing. A caller that cannot wait for a slow server (`waitMs`: the designer) gets an
 * error at its own deadline while the listing goes on and is kept for the next caller, so a server
 * that takes longer to start than one request can wait still appears from the next request on.
 */
export interface ListingOptions {
  /** How long a successful listing is served. Default 5 min. */
  maxAgeMs?: number;
  /** How long a failed listing is answered with its error. Default 30 s. */
  failureMaxAgeMs?: number;
  /** The listing's own deadline (connect + list). Default 30 s. */
  timeoutMs?: number;
  /** How long this caller waits for a listing in progress; the listing itself goes on. Default: until it ends. */
  waitMs?: number;
  net?: NetPolicy;
}

type Entry = { at: number; listing: Promise<McpToolInfo[]>; failed: boolean };

/** Entries kept at most; the oldest go first (one per owner and approved server version). */
const MAX_ENTRIES = 1000;
const entries = new Map<string, Entry>();
let listings = 0;

/** How many listings this process actually sent (cache misses), for tests and diagnostics. */
export const mcpListingCount = (): number => listings;

/** Forgets every kept listing (tests). */
export const clearMcpListings = (): void => entries.clear();

/** The tools of an approved MCP server version (its stored config), through the cache, keyed by owner and the version's hash. */
export function approvedMcpTools(
  workspaceId: string,
  version: Pick<ToolVersionRow, "code" | "codeHash">,
  options?: ListingOptions,
): Promise<McpToolInfo[]> {
  const config = mcpServerConfigSchema.parse(JSON.parse(version.code ?? "{}"));
  return cachedMcpTools(`${workspaceId}:${version.codeHash}`, workspaceId, config, options);
}

/** The server's tools, from a kept listing when it is fresh enough; rejects with the listing's error or at `waitMs`. */
export function cachedMcpTools(
  key: string,
  workspaceId: string,
  config: McpServerConfig,
  options: ListingOptions = {},
): Promise<McpToolInfo[]> {
  const listing = keptOrNew(key, workspaceId, config, options);
  const { waitMs } = options;
  if (waitMs === undefined) return listing;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${waitMs} ms yet (still trying)`)), waitMs);
  });
  return Promise.race([listing, deadline]).finally(() => clearTimeout(timer));
}

function keptOrNew(
  key: string,
  workspaceId: string,
  config: McpServerConfig,
  options: ListingOptions,
): Promise<McpToolInfo[]> {
  const { maxAgeMs = 300_000, failureMaxAgeMs = 30_000, timeoutMs = 30_000 } = options;
  const now = Date.now();
  const kept = entries.get(key);
  if (kept && now - kept.at < (kept.failed ? failureMaxAgeMs : maxAgeMs)) return kept.listing;
  listings++;
  const entry: Entry = {
    at: now,
    failed: false,
    listing: withCredential(workspaceId, config).then((c) => listMcpTools(c, options.net, timeoutMs)),
  };
  entry.listing.catch(() => {
    entry.failed = true;
    entry.at = Date.now();
  });
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return entry.listing;
}
