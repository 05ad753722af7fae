/** A zod tree (`z.treeifyError`) as the run API sends it in `error.details`. */
interface ErrorTree {
  errors?: string[];
  properties?: Record<string, ErrorTree>;
  items?: (ErrorTree | undefined)[];
}

/**
 * The run API's refusal in one line: its message, then each input path at fault with its first
 * reason ("topic: Invalid input: expected string, received undefined"), at most `max` of them.
 */
export function describeRunRefusal(
  error: { message?: string; details?: unknown } | undefined,
  status: number,
  max = 4,
): string {
  const message = error?.message ?? `Could not start the run (${status}).`;
  const found: string[] = [];
  const walk = (tree: ErrorTree | undefined, path: string) => {
    if (!tree || typeof tree !== "object") return;
    if (tree.errors?.[0] && path) found.push(`${path}: ${tree.errors[0]}`);
    for (const [key, sub] of Object.entries(tree.properties ?? {})) walk(sub, path ? `${path}.${key}` : key);
    (tree.items ?? []).forEach((sub, i) => walk(sub, `${path}[${i}]`));
  };
  walk(error?.details as ErrorTree | undefined, "");
  if (!found.length) return message;
  const more = found.length > max ? ` (and ${found.length - max} more)` : "";
  return `${message} ${found.slice(0, max).join("; ")}${more}`;
}
