import type { RequestFacts } from "./request";
import { similarity } from "@/lib/similarity";

/** The first enum property of a structured answer's JSON schema: its name and string values. */
function choiceField(schema: unknown): { field: string; values: string[]; hasReason: boolean } | undefined {
  const props = (schema as { properties?: Record<string, { enum?: unknown }> } | undefined)?.properties;
  if (!props || typeof props !== "object") return undefined;
  for (const [field, prop] of Object.entries(props)) {
    const values = Array.isArray(prop?.enum) ? prop.enum.filter((v): v is string => typeof v === "string") : [];
    if (values.length > 0) return { field, values, hasReason: "reason" in props };
  }
  return undefined;
}

/**
 * A deterministic judge for the offline demo (reply `choose: "closest"`): the structured answer's
 * enum (a router's `branch`) decides what can be chosen; each option reads as the prompt line that
 * names it in quotes (`- "refund" (Refund): The customer wants money back…`), and the option whose
 * line is most like the conversation before that prompt (lib/similarity.ts; the message being routed,
 * the draft being judged) wins; ties go to the first declared option. Undefined when the request asks
 * for no enum.
 */
export function closestChoice(f: RequestFacts): Record<string, string> | undefined {
  const choice = choiceField(f.answerSchema);
  if (!choice) return undefined;
  const names = (text: string) => choice.values.some((v) => text.includes(`"${v}"`));
  const at = f.texts.findIndex((t) => names(t.text));
  const before = f.texts.slice(0, at < 0 ? f.texts.length : at).filter((t) => t.role !== "system");
  const judged = before.map((t) => t.text).join("\n");
  const optionsText = at < 0 ? "" : f.texts[at]!.text;
  let best = { value: choice.values[0]!, line: "", score: -1 };
  for (const value of choice.values) {
    const line =
      optionsText
        .split("\n")
        .find((l) => l.includes(`"${value}"`))
        ?.trim() ?? value;
    const score = similarity(judged, `${value} ${line}`);
    if (score > best.score) best = { value, line, score };
  }
  const reason = `Scripted judge: the option closest to the input${best.line ? ` (${best.line})` : ""}.`;
  return { [choice.field]: best.value, ...(choice.hasReason ? { reason } : {}) };
}
