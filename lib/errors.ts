/** Error codes the API answers with; route handlers map them to HTTP statuses (httpStatus). */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "too_large"
  | "unsupported_media_type"
  | "invalid_workflow"
  | "unavailable"
  | "internal";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  too_large: 413,
  unsupported_media_type: 415,
  invalid_workflow: 422,
  unavailable: 503,
  internal: 500,
};

/** An error meant for the user: its message is safe to show, its code picks the HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
  get status(): number {
    return STATUS[this.code];
  }
}

/** Maps an error code to its HTTP status. */
export const httpStatus = (code: ErrorCode): number => STATUS[code];

/** Not found, also used for rows that exist but belong to someone else (no existence leak). */
export const notFound = (what = "Not found") => new AppError("not_found", what);
