/** A provider row as the settings page shows it (never the key: only its last four characters). */
export interface ProviderRow {
  id: string;
  name: string;
  baseUrl: string;
  defaultModel: string;
  apiKeyLast4: string | null;
}

/** Result of a settings form action: field errors map form field names to messages. */
export type FormResult =
  | { status: "idle" }
  | { status: "ok"; message: string }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string | undefined> };

/** Result of "Test connection". */
export type TestResult = { ok: true; message: string } | { ok: false; message: string };

export type SaveProviderAction = (prev: FormResult, form: FormData) => Promise<FormResult>;
export type DeleteProviderAction = (id: string) => Promise<FormResult>;
export type TestProviderAction = (id: string) => Promise<TestResult>;

/** The name shown for the built-in scripted OpenAI-compatible server. */
export const SCRIPTED_MODEL_LABEL = "Scripted demo model";

/** `••••abcd`, or "No key" for keyless endpoints. */
export const maskedKey = (last4: string | null): string => (last4 ? `••••${last4}` : "No key");

/** An API token row as settings shows it: never the secret, only its last four characters. */
export interface ApiTokenRow {
  id: string;
  name: string;
  lastFour: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Result of "New token": the secret is in this answer only, never again. */
export type CreateTokenResult =
  | { status: "idle" }
  | { status: "ok"; name: string; token: string }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string | undefined> };

export type CreateTokenAction = (prev: CreateTokenResult, form: FormData) => Promise<CreateTokenResult>;
export type RevokeTokenAction = (id: string) => Promise<FormResult>;
