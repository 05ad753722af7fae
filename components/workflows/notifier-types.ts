import type { FormResult } from "@/components/settings/types";
import { timeAgo } from "./format";

/** A notifier's last delivery as the workflow page shows it. */
export interface DeliveryRow {
  id: string;
  runId: string;
  /** run.finished or run.waiting (absent in older rows: an end). */
  event?: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  createdAt: Date;
}

/** A notification URL as the workflow page shows it: never its secret, only the secret's last four characters. */
export interface NotifierRow {
  id: string;
  url: string;
  on: "all" | "failures";
  secretLast4: string;
  enabled: boolean;
  lastDelivery: DeliveryRow | null;
  /** The latest deliveries, newest first. */
  recent: DeliveryRow[];
}

/** A new notifier's signing secret, answered once. */
export type NotifierSecretResult =
  | { status: "idle" }
  | { status: "ok"; url: string; secret: string }
  | { status: "error"; message?: string; fieldErrors?: Record<string, string | undefined> };

export interface NotifierActions {
  create: (prev: NotifierSecretResult, form: FormData) => Promise<NotifierSecretResult>;
  update: (prev: FormResult, form: FormData) => Promise<FormResult>;
  ping: (workflowId: string, id: string) => Promise<FormResult>;
  pause: (workflowId: string, id: string, paused: boolean) => Promise<FormResult>;
  redeliver: (workflowId: string, deliveryId: string) => Promise<FormResult>;
  remove: (workflowId: string, id: string) => Promise<FormResult>;
}

export const NOTIFY_ON_LABEL: Record<NotifierRow["on"], string> = {
  all: "Every run that ends",
  failures: "Runs that do not succeed",
};

/** One line on a notifier's last delivery: when, and how it went. */
export function describeDelivery(d: DeliveryRow | null, now: Date = new Date()): string {
  if (!d) return "Nothing sent yet";
  const when = timeAgo(d.createdAt, now);
  const tries = d.attempts === 1 ? "1 try" : `${d.attempts} tries`;
  if (d.status === "delivered") return `Delivered ${when} (${d.responseStatus ?? "2xx"}, ${tries})`;
  if (d.status === "failed") return `Failed ${when} after ${tries}: ${d.error ?? "no answer"}`;
  return d.attempts === 0 ? `Sending (${when})` : `Retrying after ${tries} (${when}): ${d.error ?? "no answer"}`;
}

/** What a delivery told its URL, in words. */
export const deliveryEventLabel = (event: string | undefined): string =>
  event === "run.waiting" ? "Review waiting" : "Run ended";
