import "server-only";
import { db } from "@/lib/db/client";
import { readRunNow, withEnd } from "@/lib/db/run-log";
import { isShareLinkActive, resolveShareToken, type ShareGrant } from "@/lib/db/share-links";
import { AppError, notFound } from "@/lib/errors";
import { clientIp } from "@/lib/net/client-address";
import { rateLimiter, type RateLimitRule } from "@/lib/limits/rate-limit";
import { workflowSchema } from "@/lib/workflow/schema";
import { errorResponse } from "@/lib/http/handle";
import { sharedEnvelope, sharedGraph, sharedRunInfo, sharedStep, type SharedRun } from "./share-dto";
import { runEventsResponse, type StreamAccessResolver } from "@/lib/http/run-events";

/** Headers of every share page and share API answer: no referrer leak of the token, no indexing, no caching. */
export const SHARE_HEADERS = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "no-store, no-transform",
} as const;

/** Per-IP limit of share endpoints: 120 requests a minute (token guessing is hopeless, scraping is not). */
export const SHARE_RATE_RULE: RateLimitRule = { name: "share", max: 120, windowMs: 60_000 };

/** Counts a hit of this IP; AppError("rate_limited") with Retry-After past the rule. */
export async function limitShareRequest(request: Request, rule: RateLimitRule = SHARE_RATE_RULE): Promise<void> {
  const decision = await rateLimiter().hit(rule, clientIp(request.headers));
  if (!decision.allowed)
    throw new AppError("rate_limited", "Too many requests; try again later.", undefined, decision.retryAfterSeconds);
}

/** Runs a share route: rate limit, errors as JSON, SHARE_HEADERS on every answer (success or error). */
export async function handleShare(
  request: Request,
  fn: () => Promise<Response>,
  rule?: RateLimitRule,
): Promise<Response> {
  let res: Response;
  try {
    await limitShareRequest(request, rule);
    res = await fn();
  } catch (err) {
    res = errorResponse(err);
  }
  for (const [k, v] of Object.entries(SHARE_HEADERS)) res.headers.set(k, v);
  return res;
}

/** The read-only, allow-listed view of the run a token unlocks, or null (unknown/revoked/expired: 404). */
export async function getSharedRun(token: string): Promise<SharedRun | null> {
  const grant = await resolveShareToken(token);
  return grant ? sharedRunOf(grant) : null;
}

async function sharedRunOf(grant: ShareGrant): Promise<SharedRun | null> {
  const row = await db().run.findUnique({
    where: { id: grant.runId },
    select: {
      id: true,
      status: true,
      reason: true,
      promptTokens: true,
      completionTokens: true,
      stepCount: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      inputs: true,
      outputs: true,
      trigger: true,
      workflowVersion: { select: { version: true, document: true, workflow: { select: { name: true } } } },
    },
  });
  // steps, counters and a logged end with the run's log folded in (a running run's may be ahead of its rows)
  const now = row && (await readRunNow(row.id));
  if (!row || !now) return null;
  const doc = workflowSchema.safeParse(row.workflowVersion.document);
  const c = grant.includeContent;
  return {
    run: sharedRunInfo(
      {
        ...withEnd(row, now.end),
        promptTokens: now.promptTokens,
        completionTokens: now.completionTokens,
        stepCount: now.stepCount,
        workflowName: row.workflowVersion.workflow.name,
        version: row.workflowVersion.version,
      },
      c,
    ),
    graph: doc.success ? sharedGraph(doc.data) : { name: "", nodes: [], edges: [], agents: [], defaultModel: null },
    steps: now.steps.map((s) => sharedStep(s, c)),
    includeContent: c,
    expiresAt: grant.expiresAt.toISOString(),
  };
}

/**
 * Stream access of a share token (the runId in the URL is ignored: the token names the run). The
 * link is re-checked every 2 s (lib/events' revalidate default; S4 asks ≤ 5 s); revoked or expired closes the stream (S4); events
 * pass through the allowlist (W2).
 */
export function shareStreamAccess(token: string): StreamAccessResolver {
  return async () => {
    const grant = await resolveShareToken(token);
    if (!grant) return null;
    return {
      runId: grant.runId,
      revalidate: () => isShareLinkActive(grant.linkId),
      transform: (env) => sharedEnvelope(env, grant.includeContent),
      // a step's live text is content: never for a link without content
      liveText: grant.includeContent,
    };
  };
}

/** The SSE response of GET /api/share/[token]/events (404 for a bad token). */
export async function sharedEventsResponse(request: Request, token: string): Promise<Response> {
  const grant = await resolveShareToken(token);
  if (!grant) throw notFound("Link not found");
  return runEventsResponse(request, grant.runId, shareStreamAccess(token));
}
