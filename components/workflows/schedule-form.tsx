"use client";
import { useActionState, useState } from "react";
import type { FormResult } from "@/components/settings/types";
import { useDoneOnOk } from "@/components/ui/action-result";
import { ActionForm } from "@/components/ui/action-form";
import { FormField } from "@/components/ui/form-field";
import { Input, Select, Textarea } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { SCHEDULE_PRESETS, type ScheduleActions, type ScheduleRow } from "./schedule-types";

/** The browser's IANA zone (the form's default), UTC on the server. */
const localZone = () =>
  typeof Intl === "undefined" ? "UTC" : Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Adds a schedule, or edits `editing`: a preset or custom cron pattern, a time zone and the run's inputs as JSON. */
export function ScheduleForm({
  workflowId,
  exampleInputs,
  editing,
  action,
  onDone,
}: {
  workflowId: string;
  exampleInputs: Record<string, unknown>;
  editing?: Pick<ScheduleRow, "id" | "cron" | "timezone" | "inputs">;
  action: ScheduleActions["save"];
  onDone: () => void;
}) {
  const [state, formAction, pending] = useActionState<FormResult, FormData>(action, { status: "idle" });
  // the cron field is controlled only because the preset select writes it; ActionForm keeps the other fields after a refusal
  const [cron, setCron] = useState<string>(editing?.cron ?? SCHEDULE_PRESETS[2].cron);
  useDoneOnOk(state, onDone);
  const errors = state.status === "error" ? (state.fieldErrors ?? {}) : {};
  const preset = SCHEDULE_PRESETS.find((p) => p.cron === cron.trim())?.cron ?? "custom";
  return (
    <ActionForm action={formAction} pending={pending} className="grid gap-4" noValidate>
      <input type="hidden" name="workflowId" value={workflowId} />
      {editing && <input type="hidden" name="id" value={editing.id} />}
      {state.status === "error" && state.message && (
        <p role="alert" className="rounded-md border border-danger/30 bg-danger/10 px-3 py-2 text-sm text-danger">
          {state.message}
        </p>
      )}
      <FormField label="When">
        <Select value={preset} onChange={(e) => e.target.value !== "custom" && setCron(e.target.value)}>
          {SCHEDULE_PRESETS.map((p) => (
            <option key={p.cron} value={p.cron}>
              {p.label}
            </option>
          ))}
          <option value="custom">Custom cron pattern</option>
        </Select>
      </FormField>
      <FormField
        label="Cron pattern"
        error={errors.cron}
        hint="minute hour day-of-month month day-of-week, e.g. 30 7 * * 1-5; or @hourly, @daily, @weekly."
      >
        <Input name="cron" value={cron} onChange={(e) => setCron(e.target.value)} className="font-mono" required />
      </FormField>
      <FormField
        label="Time zone"
        error={errors.timezone}
        hint="IANA name; the pattern is read in this zone, daylight saving included."
      >
        <Input name="timezone" defaultValue={editing?.timezone ?? localZone()} list="schedule-time-zones" required />
      </FormField>
      <datalist id="schedule-time-zones">
        {(typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"]).map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <FormField
        label="Inputs (JSON)"
        error={errors.inputs}
        hint="Checked against the input fields of the newest saved version now, and at every run."
      >
        <Textarea
          name="inputs"
          rows={4}
          className="font-mono text-xs"
          defaultValue={JSON.stringify(editing?.inputs ?? exampleInputs, null, 2)}
        />
      </FormField>
      <div className="flex justify-end">
        <SubmitButton>{editing ? "Save schedule" : "Add schedule"}</SubmitButton>
      </div>
    </ActionForm>
  );
}
