import { forwardRef, type InputHTMLAttributes, type TextareaHTMLAttributes, type SelectHTMLAttributes } from "react";
import { cn } from "./cn";

/** Shared field styling; `aria-invalid` turns the border red. */
export const fieldClasses = cn(
  "w-full rounded-md border border-border bg-surface px-3 text-sm text-foreground shadow-xs transition-colors",
  "placeholder:text-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/60 focus-visible:border-ring",
  "disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-danger aria-invalid:ring-danger/30",
);

/** A text input (h-9). */
export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...rest },
  ref,
) {
  return <input ref={ref} className={cn(fieldClasses, "h-9", className)} {...rest} />;
});

/** A multi-line input (4 rows by default). */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, rows = 4, ...rest },
  ref,
) {
  return <textarea ref={ref} rows={rows} className={cn(fieldClasses, "py-2", className)} {...rest} />;
});

/** A native select styled like the inputs (native keeps keyboard and screen-reader behaviour). */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, ...rest },
  ref,
) {
  return <select ref={ref} className={cn(fieldClasses, "h-9 pr-8", className)} {...rest} />;
});
