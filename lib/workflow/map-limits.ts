/**
 * The map node's limits and modes (lib/workflow/map.ts has the rest): in a module of their own so
 * the document schema can use them without importing map.ts, which reads the schema's types.
 */

/** Default of `concurrency`: items of one map running at once. */
export const MAP_DEFAULT_CONCURRENCY = 4;
/** The highest `concurrency` a map node may ask for; `limits.maxConcurrency` may lower it for a run. */
export const MAP_MAX_CONCURRENCY = 32;
/** Most items one visit of a map may have (a longer list fails the map step; maxSteps bounds the run too). */
export const MAP_MAX_ITEMS = 1000;

/** What happens when an item's step fails: the map fails, the item is left out, or its error takes its place. */
export const mapItemErrorModes = ["fail", "skip", "collect"] as const;
export type MapItemErrorMode = (typeof mapItemErrorModes)[number];
