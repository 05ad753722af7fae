import type { Field } from "@/lib/workflow/schema";

/** A value of the field's type for an example request: its description (or key) as text, 1, true, {}. */
function exampleValue(field: Field): unknown {
  switch (field.type) {
    case "number":
      return 1;
    case "boolean":
      return true;
    case "json":
      return {};
    default:
      return field.description || field.key;
  }
}

/** The body of an example "start a run" request for these input fields. */
export const exampleRunBody = (fields: Field[]): { inputs: Record<string, unknown> } => ({
  inputs: Object.fromEntries(fields.map((f) => [f.key, exampleValue(f)])),
});

/** `text` as one single-quoted POSIX shell word (a `'` inside becomes `'\''`). */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** The curl command starting a run of the workflow at `origin`, the token read from $WEFT_TOKEN. */
export function startRunCurl(origin: string, workflowId: string, fields: Field[]): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/api/workflows/${workflowId}/runs`)} \\`,
    `  -H "Authorization: Bearer $WEFT_TOKEN" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d ${shellQuote(JSON.stringify(exampleRunBody(fields)))}`,
  ].join("\n");
}
