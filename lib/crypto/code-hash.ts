import { createHash } from "node:crypto";

/** SHA-256 hex of tool code: a version's identity; approval is of this exact hash. */
export const hashCode = (code: string): string => createHash("sha256").update(code, "utf8").digest("hex");
