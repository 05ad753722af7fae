import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createShareLink } from "@/lib/db/share-links";
import { ROUTE_PERMISSIONS, routeEntry } from "@/lib/http/permissions";
import { closeRunLimiter } from "@/lib/limits/run-start-limit";
import { closeApiRedis, closeRunsQueue, runsQueue } from "@/lib/queue";
import { allows, ROLES, type Permission, type Role } from "@/lib/roles";
import { testQueuePrefix, useTestDatabase } from "@/test/db";
import { createTestTeam, createTestUser, createTestWorkflow } from "@/test/fixtures";

/**
 * The role matrix, generated from lib/http/permissions.ts: every REST route × every role of a
 * shared workspace × a non-member. A member whose role holds the route's permission passes the gate
 * (any answer but 401/403: a 400 for the empty body, a 404 for a made-up id); one whose role does
 * not gets 403 before anything is read or changed; a non-member (their own workspace's token) finds
 * none of the workspace's rows: no 2xx on a path naming one, and no id of it in any answer.
 */
useTestDatabase();

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
const modules = import.meta.glob<Record<string, unknown>>("/app/**/route.ts");
const sources = import.meta.glob<string>("/app/**/route.ts", { query: "?raw", import: "default" });
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** "/app/api/workflows/[id]/runs/route.ts" → "/api/workflows/[id]/runs"; route groups "(app)" are not in paths. */
const patternOf = (file: string) =>
  file
    .slice("/app".length, -"/route.ts".length)
    .split("/")
    .filter((part) => !/^\(.*\)$/.test(part))
    .join("/");
const fileOf = new Map(Object.keys(sources).map((file) => [patternOf(file), file]));

interface Member {
  userId: string;
  auth: Record<string, string>;
}
const members = {} as Record<Role, Member>;
let outsider: Member;
/** ids of the shared workspace's rows, by the path parameter that names them */
const ids: Record<string, string> = {};

beforeAll(async () => {
  process.env.WEFT_QUEUE_PREFIX = testQueuePrefix();
  const team = await createTestTeam();
  const ws = { id: team.workspaceId };
  for (const role of ROLES) members[role] = { userId: team.members[role].id, auth: team.members[role].auth };
  const stranger = await createTestUser();
  outsider = { userId: stranger.id, auth: stranger.auth };

  const { workflowId, versionId } = await createTestWorkflow(ws.id);
  const run = await db().run.create({
    data: { workspaceId: ws.id, workflowVersionId: versionId, status: "succeeded" },
  });
  const dataset = await db().dataset.create({ data: { workspaceId: ws.id, name: "Rows", workflowId } });
  const experiment = await db().experiment.create({
    data: { workspaceId: ws.id, datasetId: dataset.id, datasetVersion: 0, name: "E", variants: [], evaluators: [] },
  });
  const evaluation = await db().designerEvaluation.create({
    data: { workspaceId: ws.id, label: "L", model: "m", path: "auto", status: "done", total: 0 },
  });
  const collection = await db().kbCollection.create({ data: { workspaceId: ws.id, name: "Docs" } });
  const link = await createShareLink(ws.id, run.id, { expiresIn: "1d", includeContent: false });
  Object.assign(ids, {
    workflow: workflowId,
    run: run.id,
    dataset: dataset.id,
    experiment: experiment.id,
    evaluation: evaluation.id,
    collection: collection.id,
    link: link!.link.id,
  });
});

afterAll(async () => {
  await runsQueue()
    .obliterate({ force: true })
    .catch(() => undefined);
  await closeRunsQueue();
  await closeApiRedis();
  await closeRunLimiter();
});

/** The shared workspace's row a route's `[id]` names (a made-up one where the route has no such row here). */
function idFor(pattern: string): string {
  const kind = pattern.split("/")[2];
  const byKind: Record<string, string | undefined> = {
    workflows: ids.workflow,
    runs: ids.run,
    datasets: ids.dataset,
    experiments: ids.experiment,
    designer: ids.evaluation,
    kb: ids.collection,
  };
  return byKind[kind ?? ""] ?? "missing-id";
}

function concrete(pattern: string): { url: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const url = pattern.replace(/\[(\w+)\]/g, (_m, name: string) => {
    const value =
      name === "id" ? idFor(pattern) : name === "linkId" ? ids.link! : name === "action" ? "pause" : "missing-item";
    params[name] = value;
    return value;
  });
  return { url, params };
}

/** Calls one route as `who` with an empty JSON body; reads the answer's status and (bounded) text. */
async function call(key: string, who: Member): Promise<{ status: number; text: string }> {
  const [method, pattern] = key.split(" ") as [string, string];
  const handler = (await modules[fileOf.get(pattern)!]!())[method] as Handler;
  const { url, params } = concrete(pattern);
  const abort = new AbortController();
  const request = new Request(`http://localhost${url}`, {
    method,
    headers: { ...who.auth, "content-type": "application/json" },
    signal: abort.signal,
    ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
  });
  const res = await handler(request, { params: Promise.resolve(params) });
  const streaming = res.headers.get("content-type")?.startsWith("text/event-stream");
  const text = streaming ? "" : await res.text();
  abort.abort();
  await res.body?.cancel().catch(() => undefined);
  return { status: res.status, text };
}

const gated = Object.entries(ROUTE_PERMISSIONS).filter(([, p]) => p !== "public") as [string, Permission][];

describe("the route permission table", () => {
  it("lists every method of every route file, and nothing else", async () => {
    // read as text: the sign-in route's next-auth does not load outside Next
    const found: string[] = [];
    for (const [file, load] of Object.entries(sources)) {
      const source = await load();
      const exported = [
        ...source.matchAll(/export\s+(?:async\s+function\s+(\w+)|const\s+(\w+)\s*=|const\s*\{([^}]*)\}\s*=)/g),
      ]
        .flatMap((m) => (m[3] ? m[3].split(",") : [m[1] ?? m[2] ?? ""]))
        .map((name) => name.trim());
      for (const m of METHODS) if (exported.includes(m)) found.push(`${m} ${patternOf(file)}`);
    }
    expect(found.sort()).toEqual(Object.keys(ROUTE_PERMISSIONS).sort());
  });

  it("matches concrete paths to their entry, and nothing to an unlisted one", () => {
    expect(routeEntry("POST", "/api/workflows/abc/runs")?.key).toBe("POST /api/workflows/[id]/runs");
    expect(routeEntry("GET", "/api/auth/callback/github")?.key).toBe("GET /api/auth/[...nextauth]");
    expect(routeEntry("DELETE", "/api/workflows/abc")).toBeNull();
    expect(routeEntry("GET", "/api/workflows/abc/unknown")).toBeNull();
  });
});

describe.each(ROLES)("a workspace's %s", (role) => {
  it.each(gated)("%s (needs %s)", async (key, permission) => {
    const { status, text } = await call(key, members[role]);
    if (allows(role, permission)) expect([401, 403], `${status} ${text.slice(0, 300)}`).not.toContain(status);
    else {
      expect(status, text.slice(0, 300)).toBe(403);
      const { error } = JSON.parse(text) as { error: unknown };
      // the "Create tool" dialog's stream answers its refusals as one message
      if (typeof error === "string") expect(error).toContain(`(${role}) does not allow this (${permission})`);
      else expect(error).toMatchObject({ code: "forbidden", details: { role, permission } });
    }
  });
});

describe("a non-member", () => {
  it.each(gated)("%s finds nothing of the workspace", async (key) => {
    const { status, text } = await call(key, outsider);
    const pattern = key.split(" ")[1]!;
    const namesARow = concrete(pattern)
      .url.split("/")
      .some((part) => Object.values(ids).includes(part));
    if (namesARow) expect(status, text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    for (const id of Object.values(ids)) expect(text).not.toContain(id);
  });
});
