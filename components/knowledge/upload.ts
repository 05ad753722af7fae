import type { UploadOutcome } from "./types";

/** Human size: "812 B", "14.2 KB", "3.1 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

/**
 * Checks a file before sending it (the server checks again): a supported extension and the size
 * limit. Returns the message to show, or null when it may be uploaded.
 */
export function precheck(file: { name: string; size: number }, accept: string[], maxBytes: number): string | null {
  const lower = file.name.toLowerCase();
  if (!accept.some((ext) => lower.endsWith(ext))) return `Unsupported file type. Upload ${accept.join(", ")} files.`;
  if (file.size === 0) return "The file is empty.";
  if (file.size > maxBytes) return `The file is ${formatBytes(file.size)}; the limit is ${formatBytes(maxBytes)}.`;
  return null;
}

/** Sends one file to the upload endpoint and turns the answer into an outcome (never throws). */
export async function uploadFile(collectionId: string, file: File, signal?: AbortSignal): Promise<UploadOutcome> {
  let res: Response;
  try {
    res = await fetch(`/api/kb/collections/${encodeURIComponent(collectionId)}/documents`, {
      method: "POST",
      headers: {
        "content-type": "application/octet-stream",
        "x-kb-filename": encodeURIComponent(file.name),
        ...(file.type ? { "x-kb-content-type": file.type } : {}),
      },
      body: file,
      signal,
    });
  } catch {
    return { state: "error", message: "The upload did not reach the server. Check your connection and retry." };
  }
  return outcomeOf(res.status, await res.json().catch(() => null));
}

/** Maps the endpoint's status and JSON body to an outcome. */
export function outcomeOf(status: number, body: unknown): UploadOutcome {
  const b = (body ?? {}) as { document?: { chunkCount?: number }; duplicate?: boolean; error?: { message?: string } };
  if (status === 200 || status === 201)
    return { state: "done", chunks: b.document?.chunkCount ?? 0, duplicate: Boolean(b.duplicate) };
  if (status === 413) return { state: "error", message: "The file is larger than the server accepts." };
  return { state: "error", message: b.error?.message ?? `The server answered ${status}. Retry.` };
}
