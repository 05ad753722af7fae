import { cloneElement, isValidElement, type ReactElement, useId } from "react";
import { Label } from "./label";

interface FieldProps {
  label: string;
  /** The control; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  /** Shown in red under the control and announced with it. */
  error?: string;
  hint?: string;
  /** Id for the control (default: generated). */
  id?: string;
}

/** A label + control + hint/error, wired for screen readers. */
export function FormField({ label, children, error, hint, id }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const describedBy = error ? `${controlId}-error` : hint ? `${controlId}-hint` : undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: controlId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
      })
    : children;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={controlId}>{label}</Label>
      {control}
      {error ? (
        <p id={`${controlId}-error`} className="text-xs text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={`${controlId}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
