// Types of ./rooms.mjs for the TypeScript tests that read the rooms table.

/** Room → the rooms it may import. */
export const rooms: Record<string, string[]>;
/** The room a repository path belongs to, or null outside lib/. */
export function roomOf(file: string): string | null;
/** Whether a repository path is test code. */
export function isTestCode(file: string): boolean;
/** Whether a repository path may import test code. */
export function mayImportTests(file: string): boolean;
