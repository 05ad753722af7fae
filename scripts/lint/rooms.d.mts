/** Types of ./rooms.mjs (the lint rule and test/import-direction.test.ts read it). */
export declare const rooms: Record<string, string[]>;
export declare function roomOf(file: string): string | null;
export declare const isTestCode: (file: string) => boolean;
export declare const mayImportTests: (file: string) => boolean;
