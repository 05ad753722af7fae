import type { FormResult } from "@/components/settings/types";
import type { Field } from "@/lib/workflow/schema";
import { exampleRunBody, shellQuote } from "./api-example";

/** A webhook as the workflow page shows it: never its secret, only the secret's last four characters. */
export interface WebhookRow {
  id: string;
  name: string;
  lastFour: string;
  inputMode: "fields" | "payload";
  payloadField: string | null;
  enabled: boolean;
  lastUsedAt: Date | null;
  lastRunId: string | null;
  lastError: string | null;
  /** The latest calls, newest first: the HTTP status answered, the run started or the refusal. */
  recent: { at: Date; status: number; runId: string | null; error: string | null }[];
}

/** A webhook's secret, answered once: when it is created or given a new URL. */
export type WebhookSecretResult =
  | { status: "idle" }
  | { status: "ok"; name: string; secret: string }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string | undefined> };

export interface WebhookActions {
  create: (prev: WebhookSecretResult, form: FormData) => Promise<WebhookSecretResult>;
  update: (prev: FormResult, form: FormData) => Promise<FormResult>;
  pause: (workflowId: string, id: string, paused: boolean) => Promise<FormResult>;
  rotate: (workflowId: string, id: string) => Promise<WebhookSecretResult>;
  remove: (workflowId: string, id: string) => Promise<FormResult>;
}

/** The public URL of a webhook secret. */
export const webhookUrl = (origin: string, secret: string): string => `${origin}/api/hooks/${secret}`;

/** What a webhook does with a call's body, in a few words. */
export const describeInputMode = (w: Pick<WebhookRow, "inputMode" | "payloadField">): string =>
  w.inputMode === "payload" ? `Whole body → ${w.payloadField ?? "?"}` : "Body fields → inputs";

/** An example call: a JSON object of the input fields (fields mode), or a sample event (payload mode). */
export function webhookCurl(url: string, fields: Field[], mode: WebhookRow["inputMode"]): string {
  const body = mode === "payload" ? { event: "example", id: 1 } : exampleRunBody(fields).inputs;
  return [
    `curl -X POST ${shellQuote(url)} \\`,
    `  -H "content-type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join("\n");
}
