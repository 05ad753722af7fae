import "server-only";
import { db } from "@/lib/db/client";
import { STRUCTURED_PATHS, type StructuredPath } from "@/lib/llm/json-call";
import type { PathMemory } from "@/lib/llm/path-memory";

/**
 * The structured-output path each provider answered one user's designer on, kept in the database
 * (ModelCapability) so it is remembered across requests and restarts. Keys are lib/llm's
 * `pathKey(config)`: "<base URL>|<model>".
 */
export function dbPathMemory(workspaceId: string): PathMemory {
  const split = (key: string) => {
    const at = key.lastIndexOf("|");
    return { baseUrl: key.slice(0, at), model: key.slice(at + 1) };
  };
  return {
    async get(key) {
      const row = await db().modelCapability.findUnique({
        where: { workspaceId_baseUrl_model: { workspaceId, ...split(key) } },
      });
      return STRUCTURED_PATHS.find((p) => p === row?.path);
    },
    async set(key, path: StructuredPath) {
      const where = { workspaceId, ...split(key) };
      await db().modelCapability.upsert({
        where: { workspaceId_baseUrl_model: where },
        create: { ...where, path },
        update: { path },
      });
    },
  };
}
