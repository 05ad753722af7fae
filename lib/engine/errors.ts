/**
 * Every error the engine throws or expects its ports to throw. They are control signals: the driver
 * and the executors tell them apart with `instanceof`, so each concept has exactly one class here.
 */
import type { ErrorClass } from "@/lib/workflow/error-policy";
import type { InputRequest } from "./events";
import type { CommitFailure } from "./ports/store";

/** Why an in-flight step's signal was aborted (the executor sees it as `signal.reason`). */
export class StepAbort extends Error {
  constructor(readonly why: "cancelled" | "timed_out" | "handed_back" | "lost_lease") {
    super(`step ${why.replace("_", " ")}`);
    this.name = "StepAbort";
  }
}

/**
 * A failure with a message meant for the run's trace (configuration problems, tool refusals), and
 * its error class when it has one (error policies retry by class; default `other`).
 */
export class StepError extends Error {
  constructor(
    message: string,
    readonly errorClass: ErrorClass = "other",
  ) {
    super(message);
    this.name = "StepError";
  }
}

/**
 * An agent wrote a tool during its step and the tool waits for its owner's approval: the step
 * waits (no worker holds it) with this review, and continues once it is answered.
 */
export class AwaitingApproval extends Error {
  constructor(readonly request: InputRequest) {
    super(`waiting for the approval of tool "${request.tool?.name ?? "?"}"`);
    this.name = "AwaitingApproval";
  }
}

/** A budget hit inside a step (e.g. maxTurnsPerVisit): the step fails and the run ends budget_exhausted (R6). */
export class StepLimitError extends Error {
  constructor(
    readonly limit: string,
    message: string,
  ) {
    super(message);
    this.name = "StepLimitError";
  }
}

/**
 * The model declined to answer (an OpenAI refusal): the step fails with a reason that says so,
 * instead of taking the empty answer as the agent's output (L1). Class `invalid_output`.
 */
export class ModelRefusalError extends StepError {
  constructor(readonly refusal: string) {
    super(
      `the model refused to answer: ${refusal.length > 500 ? `${refusal.slice(0, 500)}…` : refusal}`,
      "invalid_output",
    );
    this.name = "ModelRefusalError";
  }
}

/** Why a model call failed for good (after lib/llm's retries): the step fails with `message`. */
export type ModelErrorKind = "permanent" | "retries_exhausted" | "aborted" | "timeout" | "config";

/** Thrown by ModelPort implementations when a call failed for good. */
export class ModelCallError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ModelCallError";
  }
}

/**
 * A commit the store refused: the run is no longer this holder's to write (`lost_lease`: another
 * worker holds it or a step row is not ours; `stale`: the version moved; `terminal`; `not_found`).
 * Stores answer it as `{ ok: false, reason }`; inside a store it may be thrown to roll a transaction back.
 */
export class CommitRefused extends Error {
  constructor(
    readonly reason: CommitFailure,
    readonly detail?: string,
  ) {
    super(`commit refused: ${reason}${detail ? ` (${detail})` : ""}`);
    this.name = "CommitRefused";
  }
}
