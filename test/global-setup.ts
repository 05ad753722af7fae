import { ensureTemplate } from "./pg-admin";

/** Vitest global setup: build the migrated template database that every integration test clones. */
export default async function setup(): Promise<void> {
  await ensureTemplate();
}
