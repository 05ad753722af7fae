/** The end index (exclusive) of the balanced JSON object/array starting at `start`, or -1. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(c === "{" ? "}" : "]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

function tryParse(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

/**
 * Finds JSON in model text, for models without tool calling or JSON mode: the whole text, else
 * the first fenced ```json block, else the first balanced {…} that parses (then […]).
 * Returns undefined when there is none.
 */
export function extractJson(text: string): { value: unknown } | undefined {
  const whole = tryParse(text.trim());
  if (whole.ok) return { value: whole.value };
  for (const m of text.matchAll(/```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)```/g)) {
    const r = tryParse((m[1] ?? "").trim());
    if (r.ok) return { value: r.value };
  }
  for (const open of ["{", "["]) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) {
      const end = balancedEnd(text, i);
      if (end < 0) continue;
      const r = tryParse(text.slice(i, end));
      if (r.ok) return { value: r.value };
    }
  }
  return undefined;
}
