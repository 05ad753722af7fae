/**
 * Step memo: values a step records so that running it again (a crash re-dispatch, or its
 * continuation after a tool approval) replays them instead of repeating the work: an agent's model
 * turns and a created tool's rounds. Keys are effect keys (executors/common.ts effectKey), so a new
 * error-policy try records its own.
 */
export interface MemoPort {
  get(key: string): Promise<unknown>;
  put(key: string, runId: string, value: unknown): Promise<void>;
}

/** A memo in this process's memory (tests, dry runs): nothing survives the process. */
export function memoryMemo(): MemoPort & { size(): number } {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    put: async (key, _runId, value) => void values.set(key, structuredClone(value)),
    size: () => values.size,
  };
}
