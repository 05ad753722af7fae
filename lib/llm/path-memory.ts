import type { StructuredPath } from "./json-call";
import type { ModelConfig } from "./models";

/**
 * Which structured-output path a provider answered on, remembered per provider and model so the next
 * call starts there (json-call.ts). The product keeps it in the database per user (lib/db); tests and
 * commands use the in-process one.
 */
export interface PathMemory {
  get(key: string): Promise<StructuredPath | undefined>;
  set(key: string, path: StructuredPath): Promise<void>;
}

/** The memory key of a provider and model: base URL (no trailing slash) and model name. */
export const pathKey = (config: Pick<ModelConfig, "baseURL" | "model">): string =>
  `${config.baseURL.replace(/\/+$/, "")}|${config.model}`;

/** A memory held in this process only. */
export function processPathMemory(): PathMemory & { entries(): [string, StructuredPath][] } {
  const paths = new Map<string, StructuredPath>();
  return {
    get: async (key) => paths.get(key),
    set: async (key, path) => void paths.set(key, path),
    entries: () => [...paths],
  };
}
