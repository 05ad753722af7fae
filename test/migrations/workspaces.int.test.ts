import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationFiles, urlFor, withAdmin } from "@/test/pg-admin";

/**
 * The workspaces migration on a copy of a populated database: two users' data (providers, agents,
 * tools, credentials, workflows and versions, a finished run with its steps and events, share links,
 * API tokens, knowledge, datasets, schedules, settings) written at the schema before it, then the
 * migration. Every row of every table that existed survives unchanged (its owner column renamed to
 * workspaceId, same value), each user gets a personal workspace with their id and owns it, and each
 * run's dashboard reads the same rows for its owner and nothing for the other user.
 */
const WORKSPACES = "20261205120000_workspaces";
const name = `weft_t_${Date.now()}_mig_${randomBytes(3).toString("hex")}`;
let client: pg.Client;
const users = ["user_a", "user_b"] as const;

async function insert(table: string, row: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(row);
  const values = Object.values(row).map((v) =>
    v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v,
  );
  await client.query(
    `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`,
    values,
  );
}

/** One user's data, as the app before workspaces wrote it (owner column `ownerId`). */
async function populate(u: string): Promise<void> {
  const now = new Date("2026-12-01T10:00:00Z");
  const owned = { ownerId: u };
  await insert("User", { id: u, email: `${u}@test.local`, name: u, updatedAt: now });
  await insert("UserSettings", { userId: u, designerModel: "m", updatedAt: now });
  await insert("ModelProvider", {
    id: `${u}_prov`,
    ...owned,
    name: "Local",
    baseUrl: "http://127.0.0.1:1/v1",
    defaultModel: "m",
    updatedAt: now,
  });
  await insert("Agent", { id: `${u}_agent`, ...owned, name: "Writer", updatedAt: now });
  await insert("Tool", { id: `${u}_tool`, ...owned, name: "adder", kind: "code", updatedAt: now });
  await insert("ToolVersion", { id: `${u}_tv`, toolId: `${u}_tool`, version: 1 });
  await insert("Credential", {
    id: `${u}_cred`,
    ...owned,
    name: "key",
    kind: "bearer",
    cipher: "c",
    keyId: "k",
    last4: "abcd",
    updatedAt: now,
  });
  const doc = {
    name: "Flow",
    nodes: [
      { id: "start", type: "start" },
      { id: "end", type: "end" },
    ],
    edges: [{ id: "e", source: "start", sourceHandle: "next", target: "end" }],
  };
  await insert("Workflow", { id: `${u}_wf`, ...owned, name: "Flow", draft: doc, updatedAt: now });
  await insert("WorkflowVersion", { id: `${u}_wv`, workflowId: `${u}_wf`, version: 1, document: doc });
  await insert("Run", {
    id: `${u}_run`,
    ...owned,
    workflowVersionId: `${u}_wv`,
    status: "succeeded",
    inputs: {},
    outputs: { ok: true },
    stepCount: 2,
    nextSeq: 5,
    startedAt: now,
    finishedAt: now,
  });
  for (const [i, node] of ["start", "end"].entries())
    await insert("Step", {
      id: `${u}_step_${node}`,
      runId: `${u}_run`,
      nodeId: node,
      status: "succeeded",
      output: { i },
      startedAt: now,
      finishedAt: now,
    });
  for (const [i, type] of ["run_started", "step_started", "step_succeeded", "run_succeeded"].entries())
    await insert("RunEvent", { runId: `${u}_run`, seq: i + 1, type, payload: { i } });
  await insert("ShareLink", { id: `${u}_share`, runId: `${u}_run`, ...owned, tokenHash: `${u}_hash`, expiresAt: now });
  await insert("ApiToken", { id: `${u}_token`, ...owned, name: "CI", tokenHash: `${u}_th`, lastFour: "wxyz" });
  await insert("KbCollection", { id: `${u}_kb`, ...owned, name: "Docs", updatedAt: now });
  await insert("Dataset", { id: `${u}_ds`, ...owned, name: "Rows", workflowId: `${u}_wf`, updatedAt: now });
  await insert("DatasetRow", { id: `${u}_row`, datasetId: `${u}_ds`, ordinal: 1, inputs: { q: 1 }, addedIn: 1 });
  await insert("Schedule", {
    id: `${u}_sched`,
    ...owned,
    workflowId: `${u}_wf`,
    cron: "0 * * * *",
    timezone: "UTC",
    updatedAt: now,
  });
}

/** Every row of every table, as JSON texts sorted, by table. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
  );
  const out: Record<string, string[]> = {};
  for (const { table_name: t } of tables.rows) {
    const rows = await client.query<{ j: Record<string, unknown> }>(`SELECT row_to_json(t) AS j FROM "${t}" t`);
    out[t] = rows.rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r.j).sort(([a], [b]) => a.localeCompare(b)))))
      .sort();
  }
  return out;
}

beforeAll(async () => {
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  client = new pg.Client({ connectionString: urlFor(name) });
  await client.connect();
  for (const f of migrationFiles().filter((f) => f < f.replace(/[^/]+\/migration\.sql$/, `${WORKSPACES}/`)))
    await client.query(fs.readFileSync(f, "utf8"));
  for (const u of users) await populate(u);
});

afterAll(async () => {
  await client?.end();
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

describe("migration 20261205120000_workspaces", () => {
  it("keeps every row, moves each user's data into their personal workspace, and new accounts get one", async () => {
    const before = await snapshot();
    expect(before.Run).toHaveLength(2);
    const workspacesFile = migrationFiles().find((f) => f.includes(WORKSPACES))!;
    await client.query(fs.readFileSync(workspacesFile, "utf8"));
    const after = await snapshot();

    // every table that existed keeps every row: the same values, ownerId now named workspaceId
    const renamed = (row: string) => row.replace(/"workspaceId":/g, '"ownerId":');
    for (const [table, rows] of Object.entries(before)) {
      const now = (after[table] ?? []).map((r) => {
        const parsed = JSON.parse(renamed(r)) as Record<string, unknown>;
        if (table === "ApiToken") {
          expect(parsed.userId).toBe(parsed.ownerId); // a token acts for the user who made it
          delete parsed.userId;
        }
        return JSON.stringify(Object.fromEntries(Object.entries(parsed).sort(([a], [b]) => a.localeCompare(b))));
      });
      expect(now.sort(), table).toEqual(rows);
    }
    expect(after.Workspace!.map((w) => JSON.parse(w).id).sort()).toEqual([...users]);
    expect(
      after.Membership!.map((m) => JSON.parse(m) as { userId: string; role: string; workspaceId: string }),
    ).toEqual(
      expect.arrayContaining(users.map((u) => expect.objectContaining({ workspaceId: u, userId: u, role: "owner" }))),
    );

    await client.query(`INSERT INTO "User" (id, email, "updatedAt") VALUES ('user_c', 'c@test.local', now())`);
    const personal = await client.query(
      `SELECT w.id, m.role FROM "Workspace" w JOIN "Membership" m ON m."workspaceId" = w.id WHERE w."personalOf" = 'user_c'`,
    );
    expect(personal.rows).toEqual([{ id: "user_c", role: "owner" }]);
  });

  it("answers each run's dashboard to its owner's workspace only", async () => {
    process.env.DATABASE_URL = urlFor(name);
    const { getRunDashboard } = await import("@/lib/run-views/dashboard");
    const { disconnectDb } = await import("@/lib/db/client");
    try {
      const dashboard = await getRunDashboard("user_a", "user_a_run");
      expect(dashboard.run).toMatchObject({ id: "user_a_run", status: "succeeded" });
      expect(dashboard.run.steps.map((s) => s.nodeId).sort()).toEqual(["end", "start"]);
      expect(dashboard.run.lastSeq).toBe(4);
      expect(dashboard.doc?.nodes.map((n) => n.id)).toEqual(["start", "end"]);
      await expect(getRunDashboard("user_b", "user_a_run")).rejects.toMatchObject({ code: "not_found" });
    } finally {
      await disconnectDb();
    }
  });
});
