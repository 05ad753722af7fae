import "server-only";
import * as z from "zod";
import { db } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hashCode } from "@/lib/crypto/code-hash";

/** Config of a code tool version: its sandbox limits and the domains its `http` capability may reach. */
export const codeToolConfigSchema = z.object({
  allowedDomains: z.array(z.string().min(1)).default([]),
  timeoutMs: z.number().int().min(50).max(30_000).default(2000),
  memoryMb: z.number().int().min(4).max(256).default(32),
});
export type CodeToolConfig = z.infer<typeof codeToolConfigSchema>;

/** What a new code tool (or a new version of one) is made of. */
export const codeToolInputSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{1,63}$/, "lower_snake_case, 2–64 characters"),
  description: z.string().max(2000).default(""),
  code: z.string().min(1).max(200_000),
  /** JSON Schema of the arguments object. */
  argsSchema: z.record(z.string(), z.unknown()).default({ type: "object" }),
  config: codeToolConfigSchema.partial().default({}),
  /** The test cases (and their last results) the tool was accepted with; kept for review, not hashed. */
  tests: z
    .array(
      z.object({
        input: z.record(z.string(), z.unknown()),
        expected: z.unknown(),
        passed: z.boolean().optional(),
        actual: z.unknown().optional(),
        error: z.string().optional(),
      }),
    )
    .max(20)
    .optional(),
});
export type CodeToolInput = z.input<typeof codeToolInputSchema>;

/** A recorded test case of a code tool version, with its result when it was created. */
export type RecordedToolTest = NonNullable<z.infer<typeof codeToolInputSchema>["tests"]>[number];

/** The test cases recorded with a version (stored beside its sandbox config); [] when none. */
export function recordedTests(version: Pick<ToolVersionRow, "config">): RecordedToolTest[] {
  const tests = (version.config as { tests?: unknown } | null)?.tests;
  const parsed = codeToolInputSchema.shape.tests.safeParse(tests);
  return parsed.success ? (parsed.data ?? []) : [];
}

const withoutTests = (config: unknown): string => {
  const { tests: _tests, ...rest } = (config ?? {}) as Record<string, unknown>;
  return JSON.stringify(rest);
};

/** One stored version; `approved` means the owner approved exactly `codeHash`. */
export interface ToolVersionRow {
  id: string;
  toolId: string;
  version: number;
  code: string | null;
  codeHash: string | null;
  argsSchema: unknown;
  config: unknown;
  approvedAt: Date | null;
  createdAt: Date;
}

/** A tool with its versions (newest first). */
export interface ToolRow {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  kind: string;
  versions: ToolVersionRow[];
}

const withVersions = { versions: { orderBy: { version: "desc" } } } as const;

/**
 * Saves code as a tool version for the owner: a new tool (v1), a new version when the code or
 * schema changed, or the existing version when the hash is the same. New versions are NOT approved.
 */
export async function saveCodeTool(workspaceId: string, input: CodeToolInput): Promise<ToolVersionRow> {
  const data = codeToolInputSchema.parse(input);
  const codeHash = hashCode(data.code);
  return db().$transaction(async (tx) => {
    const tool = await tx.tool.upsert({
      where: { workspaceId_name: { workspaceId, name: data.name } },
      create: { workspaceId, name: data.name, description: data.description, kind: "code" },
      update: { description: data.description },
      include: { versions: { orderBy: { version: "desc" }, take: 1 } },
    });
    if (tool.kind !== "code") throw new AppError("conflict", `A ${tool.kind} tool named ${data.name} already exists`);
    const latest = tool.versions[0];
    const sameSchema =
      latest &&
      JSON.stringify(latest.argsSchema) === JSON.stringify(data.argsSchema) &&
      withoutTests(latest.config) === JSON.stringify(data.config);
    if (latest && latest.codeHash === codeHash && sameSchema) return latest;
    const config = data.tests ? { ...data.config, tests: data.tests } : data.config;
    return tx.toolVersion.create({
      data: {
        toolId: tool.id,
        version: (latest?.version ?? 0) + 1,
        code: data.code,
        codeHash,
        argsSchema: data.argsSchema as Prisma.InputJsonValue,
        config: config as Prisma.InputJsonValue,
      },
    });
  });
}

/**
 * The owner approves ONE version by the hash they reviewed. Refused when the tool is not theirs,
 * the hash is not the version's, or the stored code no longer hashes to it (tampered).
 */
export async function approveToolVersion(
  workspaceId: string,
  versionId: string,
  reviewedHash: string,
): Promise<ToolVersionRow> {
  const row = await db().toolVersion.findFirst({ where: { id: versionId, tool: { workspaceId } } });
  if (!row) throw notFound("Tool version not found");
  if (row.codeHash !== reviewedHash || row.code === null || hashCode(row.code) !== reviewedHash) {
    throw new AppError("conflict", "The code changed since it was reviewed; review it again");
  }
  return db().toolVersion.update({ where: { id: row.id }, data: { approvedAt: new Date() } });
}

/**
 * The owner withdraws approval of ONE version: it stops running at once (an agent that named the tool
 * falls back to an older approved version, if any, else the tool is unapproved). False when not theirs.
 */
export async function revokeToolVersion(workspaceId: string, versionId: string): Promise<boolean> {
  const { count } = await db().toolVersion.updateMany({
    where: { id: versionId, tool: { workspaceId } },
    data: { approvedAt: null },
  });
  return count === 1;
}

/** The owner's tools with their versions, by name. */
export async function listTools(workspaceId: string): Promise<ToolRow[]> {
  return db().tool.findMany({ where: { workspaceId }, orderBy: { name: "asc" }, include: withVersions });
}

/** One of the owner's tools by id or name (null when absent or not theirs). */
export async function findTool(workspaceId: string, by: { toolId?: string; name?: string }): Promise<ToolRow | null> {
  if (by.toolId) return db().tool.findFirst({ where: { id: by.toolId, workspaceId }, include: withVersions });
  if (by.name)
    return db().tool.findUnique({ where: { workspaceId_name: { workspaceId, name: by.name } }, include: withVersions });
  return null;
}

/** Deletes one of the owner's tools with all versions; false when not theirs. */
export async function deleteTool(workspaceId: string, toolId: string): Promise<boolean> {
  const { count } = await db().tool.deleteMany({ where: { id: toolId, workspaceId } });
  return count === 1;
}

/**
 * Saves an external MCP server's connection config as a Tool of kind "mcp" (the config JSON is the
 * version's "code", so a changed command/URL is a new version that needs the owner's approval again).
 */
export async function saveMcpServer(
  workspaceId: string,
  name: string,
  config: Record<string, unknown>,
): Promise<ToolVersionRow> {
  const code = JSON.stringify(config);
  const codeHash = hashCode(code);
  const server = z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, "lower-case letters, digits, - and _")
    .parse(name);
  return db().$transaction(async (tx) => {
    const tool = await tx.tool.upsert({
      where: { workspaceId_name: { workspaceId, name: server } },
      create: { workspaceId, name: server, description: `MCP server ${server}`, kind: "mcp" },
      update: {},
      include: { versions: { orderBy: { version: "desc" }, take: 1 } },
    });
    if (tool.kind !== "mcp") throw new AppError("conflict", `A ${tool.kind} tool named ${server} already exists`);
    const latest = tool.versions[0];
    if (latest && latest.codeHash === codeHash) return latest;
    return tx.toolVersion.create({
      data: { toolId: tool.id, version: (latest?.version ?? 0) + 1, code, codeHash, config: {} },
    });
  });
}
