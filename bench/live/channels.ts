/** The relay arm's Redis channel for a run (namespaced by the bench's queue prefix). */
export const relayChannel = (prefix: string, runId: string): string => `${prefix}:bench-relay:${runId}`;
