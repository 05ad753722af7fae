import "server-only";
import * as z from "zod";
import { isRunOwnedBy } from "@/lib/db/runs";
import { env } from "@/lib/env";
import type { RunEventEnvelope } from "@/lib/engine/events";
import { notFound } from "@/lib/errors";
import { resumeSeq, runEventStream, SSE_HEADERS } from "@/lib/events/sse";
import { onRevocation } from "@/lib/queue/revocations";
import { callerStillValid, resolveCaller, revokes } from "./caller";

/**
 * What a viewer may see of a run's stream. The owner sees everything; a share link (later) plugs in
 * its own resolver with `revalidate` (a revoked link closes open streams, S4) and `transform`
 * (the read-only allowlist, W2).
 */
export interface StreamAccess {
  runId: string;
  revalidate?: () => Promise<boolean>;
  /** How often `revalidate` runs (default 2 s). */
  revalidateMs?: number;
  /** Runs `recheck` whenever the credential may have been revoked; returns the unsubscribe function. */
  recheckOn?: (recheck: () => void) => () => void;
  transform?: (envelope: RunEventEnvelope) => RunEventEnvelope | null;
  /** Whether the viewer gets the live text of running steps (content: the owner, share links with content). */
  liveText: boolean;
}

/** How often an owner's open stream re-checks its credential (a revocation that is published closes it at once). */
export const OWNER_RECHECK_MS = 5_000;

/** Decides access from the request; null = 404 (never 403: no existence leak). */
export type StreamAccessResolver = (request: Request, runId: string) => Promise<StreamAccess | null>;

const runIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/**
 * The run's owner (session or API token) sees the full stream while the credential holds: it is
 * re-checked every OWNER_RECHECK_MS and at once when a revocation is published (a revoked token,
 * a sign-out or password change); the stream closes when it no longer holds.
 */
export const ownerStreamAccess: StreamAccessResolver = async (request, runId) => {
  const caller = await resolveCaller(request);
  if (!caller || !(await isRunOwnedBy(caller.workspaceId, runId))) return null;
  return {
    runId,
    liveText: true,
    revalidate: () => callerStillValid(caller),
    revalidateMs: OWNER_RECHECK_MS,
    recheckOn: (recheck) => onRevocation((r) => revokes(r, caller) && recheck()),
  };
};

/**
 * The SSE response for GET /api/runs/[id]/events (and share variants): authorise with `resolve`,
 * resume after Last-Event-ID / ?after=, heartbeat every WEFT_SSE_HEARTBEAT_MS (default 15 s).
 * Unauthorised, unknown and other users' runs all throw the same 404.
 */
export async function runEventsResponse(
  request: Request,
  runId: string,
  resolve: StreamAccessResolver = ownerStreamAccess,
): Promise<Response> {
  if (!runIdSchema.safeParse(runId).success) throw notFound("Run not found");
  const access = await resolve(request, runId);
  if (!access) throw notFound("Run not found");
  const stream = runEventStream({
    runId: access.runId,
    afterSeq: resumeSeq(request),
    request,
    heartbeatMs: env().WEFT_SSE_HEARTBEAT_MS,
    revalidate: access.revalidate,
    revalidateMs: access.revalidateMs,
    recheckOn: access.recheckOn,
    transform: access.transform,
    liveText: access.liveText,
  });
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}
