import { type LabelHTMLAttributes } from "react";
import { cn } from "./cn";

/** A form label. */
export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn("text-sm font-medium text-foreground", className)} {...rest} />;
}
