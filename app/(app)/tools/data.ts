import "server-only";
import * as z from "zod";
import type { McpConfigView, ToolVersionView, ToolView } from "@/components/tools/types";
import { listTools, recordedTests, type ToolRow } from "@/lib/db/tools";
import { builtinTools } from "@/lib/tools/builtins";
import { DUPLICATE_THRESHOLD, similarity } from "@/lib/tools/create";
import { hashCode } from "@/lib/crypto/code-hash";
import { mcpServerConfigSchema } from "@/lib/mcp/client/connection";
import { credentialNameSchema } from "@/lib/db/credentials";
import { approvedMcpTools } from "@/lib/mcp/client/listing";
import { runnableVersion } from "@/lib/tools/registry";

function versionView(v: ToolRow["versions"][number]): ToolVersionView {
  return {
    id: v.id,
    version: v.version,
    code: v.code ?? "",
    codeHash: v.codeHash ?? "",
    approved: v.approvedAt !== null,
    hashOk: v.code !== null && v.codeHash !== null && hashCode(v.code) === v.codeHash,
    createdAt: v.createdAt.toISOString(),
    tests: recordedTests(v),
  };
}

/** An MCP config for display (header values may be secrets: only their names are shown). */
export function mcpConfigView(code: string | null): McpConfigView | null {
  try {
    const c = mcpServerConfigSchema.parse(JSON.parse(code ?? ""));
    return c.transport === "stdio"
      ? { transport: "stdio", command: c.command, args: c.args }
      : {
          transport: "http",
          url: c.url,
          headerNames: Object.keys(c.headers),
          ...(c.credential ? { credential: c.credential } : {}),
        };
  } catch {
    return null;
  }
}

const running = (t: ToolRow) => {
  const v = runnableVersion(t, { name: t.name });
  return "reason" in v ? undefined : v.version;
};

/** The tools page waits at most 5 s for an MCP server's tools (a slower listing goes on for the next load) and shows a listing up to 30 s old. */
const TOOLS_PAGE_MCP_LISTING = { waitMs: 5_000, maxAgeMs: 30_000 } as const;

/**
 * The owner's registry for the tools page: built-ins, created code tools (versions, hashes, approval,
 * recorded tests, near-duplicates) and MCP servers (with their tools when approved; an unapproved
 * server is never started), listed through lib/mcp/client/listing.ts so a slow or dead server does not
 * hold the page up.
 */
export async function loadToolViews(
  workspaceId: string,
  options: { listMcpTools?: boolean } = {},
): Promise<ToolView[]> {
  const rows = await listTools(workspaceId);
  const builtins: ToolView[] = [...builtinTools.values()].map((b) => ({
    key: `builtin:${b.name}`,
    name: b.name,
    kind: "builtin",
    description: b.description,
    sideEffect: b.sideEffect,
    versions: [],
  }));
  const code = rows.filter((t) => t.kind === "code");
  const codeViews: ToolView[] = code.map((t) => ({
    key: t.id,
    id: t.id,
    name: t.name,
    kind: "code",
    description: t.description,
    versions: t.versions.map(versionView),
    runningVersion: running(t),
    similar: code
      .filter((o) => o.id !== t.id)
      .map((o) => ({
        name: o.name,
        score:
          Math.round(
            similarity(
              `${t.name.replace(/_/g, " ")} ${t.description}`,
              `${o.name.replace(/_/g, " ")} ${o.description}`,
            ) * 100,
          ) / 100,
      }))
      .filter((s) => s.score >= DUPLICATE_THRESHOLD),
  }));
  const mcpViews: ToolView[] = await Promise.all(
    rows
      .filter((t) => t.kind === "mcp")
      .map(async (t): Promise<ToolView> => {
        const latest = t.versions[0];
        const config = mcpConfigView(latest?.code ?? null);
        const view: ToolView = {
          key: t.id,
          id: t.id,
          name: t.name,
          kind: "mcp",
          description: t.description,
          versions: t.versions.map(versionView),
          runningVersion: running(t),
          mcp: { config },
        };
        if (options.listMcpTools === false || view.runningVersion === undefined) return view;
        try {
          const runnable = t.versions.find((v) => v.version === view.runningVersion)!;
          const tools = await approvedMcpTools(workspaceId, runnable, TOOLS_PAGE_MCP_LISTING);
          return { ...view, mcp: { config, tools: tools.map(({ name, description }) => ({ name, description })) } };
        } catch (err) {
          return { ...view, mcp: { config, error: err instanceof Error ? err.message : String(err) } };
        }
      }),
  );
  return [...builtins, ...codeViews, ...mcpViews];
}

/** Parses the settings form for an MCP server: name + stdio command/args or an HTTP URL. */
export const mcpFormSchema = z.discriminatedUnion(
  "transport",
  [
    z.object({
      transport: z.literal("stdio"),
      name: z
        .string()
        .trim()
        .regex(/^[a-z][a-z0-9_-]{0,39}$/, "Lower-case letters, digits, - and _ (start with a letter, max 40)"),
      command: z.string().trim().min(1, "Enter the command to start the server").max(500),
      args: z.string().max(2000).default(""),
    }),
    z.object({
      transport: z.literal("http"),
      name: z
        .string()
        .trim()
        .regex(/^[a-z][a-z0-9_-]{0,39}$/, "Lower-case letters, digits, - and _ (start with a letter, max 40)"),
      url: z
        .string()
        .trim()
        .url("Enter a full URL, e.g. https://mcp.example.com/mcp")
        .refine((u) => /^https?:/.test(u), "http or https only"),
      /** A credential of the vault, by name ("" = none). */
      credential: z
        .string()
        .trim()
        .optional()
        .transform((v) => v || undefined)
        .pipe(credentialNameSchema.optional()),
    }),
  ],
  { error: () => "Choose stdio or HTTP" },
);

/** Splits an args line like a shell would for simple cases: spaces separate, "double quotes" group. */
export function splitArgs(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? "");
}
