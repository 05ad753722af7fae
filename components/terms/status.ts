import type { BadgeTone } from "@/components/ui/badge";
import type { RunStatus, StepStatus } from "@/lib/engine/events";

/**
 * Run and step statuses as every view shows them: the same word (the status with spaces, so tests
 * and the API's values stay recognisable) and the same colour family wherever a status appears —
 * badge, canvas node ring and status pill, timeline bar — on the editor's run overlay, the run
 * dashboard and the share page alike.
 */
export type Status = RunStatus | StepStatus;

/** A colour family; each view draws it with its own element (ring, bar, dot, badge). */
export type StatusTone = "success" | "active" | "attention" | "danger" | "muted";

type StatusTerm = { label: string; tone: StatusTone; hint: string };

const TERMS: Record<Status, StatusTerm> = {
  queued: { label: "queued", tone: "muted", hint: "Waiting for a worker to start it" },
  pending: { label: "pending", tone: "muted", hint: "Not started yet" },
  running: { label: "running", tone: "active", hint: "Running now" },
  waiting: { label: "waiting", tone: "attention", hint: "Waiting for a person's answer or a child run" },
  retrying: { label: "retrying", tone: "attention", hint: "Failed a try; its next try is scheduled (error policy)" },
  succeeded: { label: "succeeded", tone: "success", hint: "Finished successfully" },
  failed: { label: "failed", tone: "danger", hint: "Ended with an error" },
  timed_out: { label: "timed out", tone: "danger", hint: "Took longer than its timeout" },
  aborted: { label: "aborted", tone: "danger", hint: "Ended by an abort node" },
  budget_exhausted: { label: "budget exhausted", tone: "attention", hint: "Stopped at a step, token or time limit" },
  cancelled: { label: "cancelled", tone: "muted", hint: "Cancelled before it finished" },
  skipped: { label: "skipped", tone: "muted", hint: "Not on the path this run took" },
};

const isStatus = (s: string): s is Status => Object.hasOwn(TERMS, s);

/** The word shown for a status (an unknown one is shown as it is). */
export const statusLabel = (status: string): string =>
  isStatus(status) ? TERMS[status].label : status.replace(/_/g, " ");

/** What a status means, for a tooltip. */
export const statusHint = (status: string): string => (isStatus(status) ? TERMS[status].hint : "");

/** The colour family of a status (unknown: muted). */
export const statusTone = (status: string): StatusTone => (isStatus(status) ? TERMS[status].tone : "muted");

/** Badge tone per colour family (components/ui/badge draws it from the theme's tokens). */
export const BADGE_TONE: Record<StatusTone, BadgeTone> = {
  success: "success",
  active: "primary",
  attention: "warning",
  danger: "danger",
  muted: "neutral",
};

/** Canvas node ring per colour family (the run overlay); `active` pulses. */
export const RING_CLASS: Record<StatusTone, string> = {
  success: "ring-2 ring-success",
  active: "ring-2 ring-primary animate-pulse",
  attention: "ring-2 ring-warning",
  danger: "ring-2 ring-danger",
  muted: "ring-1 ring-border",
};

/** Solid fill per colour family (timeline bars, the status dot on canvas nodes). */
export const FILL_CLASS: Record<StatusTone, string> = {
  success: "bg-success",
  active: "bg-primary animate-pulse",
  attention: "bg-warning",
  danger: "bg-danger",
  muted: "bg-zinc-300 dark:bg-zinc-600",
};

/** Every status with its word and colour family (the vocabulary test walks it). */
export const STATUS_TERMS: Readonly<Record<Status, Readonly<StatusTerm>>> = TERMS;
