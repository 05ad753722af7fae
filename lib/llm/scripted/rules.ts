import "server-only";
import type { Fault, FixtureSet, Match, Pattern, Reply, Rule } from "./fixture";
import type { RequestFacts } from "./request";
import { similarity } from "@/lib/similarity";

/** The id reported (header `x-scripted-rule`, request log) when no rule matched. */
export const FALLBACK_RULE_ID = "fallback";

/** What to send for one call: a reply (templated later) or an injected fault. */
export type Decision = (
  | { kind: "reply"; ruleId: string; reply: Reply; call: number }
  | { kind: "fault"; ruleId: string; fault: Fault; reply: Reply | undefined; call: number }
) & {
  /** Set when no rule matched and the rule was chosen by its `example` (its similarity, lib/similarity.ts, 0–1). */
  nearest?: number;
};

function test(p: Pattern, text: string): boolean {
  if (typeof p === "string") return text.toLowerCase().includes(p.toLowerCase());
  return new RegExp(p.regex, p.flags).test(text);
}

/** True when every field set in `m` holds for the request. */
export function matches(m: Match, f: RequestFacts): boolean {
  if (m.lastUser !== undefined && !test(m.lastUser, f.lastUser)) return false;
  if (m.anyMessage !== undefined && !test(m.anyMessage, f.allText)) return false;
  if (m.system !== undefined && ![m.system].flat().every((s) => f.system.includes(s))) return false;
  if (m.tools !== undefined && !m.tools.every((t) => f.tools.includes(t))) return false;
  if (m.hasTools !== undefined && m.hasTools !== f.tools.length > 0) return false;
  if (m.schema !== undefined && m.schema !== f.schemaName) return false;
  if (m.responseFormat !== undefined && m.responseFormat !== f.responseFormat) return false;
  if (m.structured !== undefined && m.structured !== f.structured) return false;
  if (m.model !== undefined && !(m.model === f.model || test(m.model, f.model))) return false;
  if (m.lastRole !== undefined && m.lastRole !== f.lastRole) return false;
  return true;
}

/**
 * When no rule matched: the rule with an `example` whose match holds apart from its message
 * patterns and whose example is most like the request's first user message (ties: match order),
 * or undefined when none shares a word with it.
 */
export function nearestExample(rules: readonly Rule[], f: RequestFacts): { rule: Rule; score: number } | undefined {
  let best: { rule: Rule; score: number } | undefined;
  for (const rule of rules) {
    if (rule.example === undefined) continue;
    const { lastUser: _lastUser, anyMessage: _anyMessage, ...rest } = rule.match;
    if (!matches(rest, f)) continue;
    const score = similarity(f.firstUser, rule.example);
    if (score > 0 && (!best || score > best.score)) best = { rule, score };
  }
  return best;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The built-in answer when nothing matched. Plain chat gets a short echo. When tools or a
 * structured format are offered it answers TEXT saying no fixture matched, never a tool call or a
 * JSON value: a branch/choice is never picked silently, so the caller sees a visible format failure.
 */
export function fallbackReply(f: RequestFacts): Reply {
  if (f.tools.length === 0 && f.responseFormat === "text") {
    return { text: `Scripted reply: ${clip(f.lastUser || f.lastTool || "(no user message)", 200)}` };
  }
  const offered = f.tools.length ? ` tools offered: ${f.tools.join(", ")};` : "";
  const format = f.schemaName ? ` schema: ${f.schemaName};` : ` format: ${f.responseFormat};`;
  return {
    text: `No scripted fixture matched this request (model ${f.model};${offered}${format} last user message: "${clip(f.lastUser, 120)}"). Add a rule under lib/llm/scripted/fixtures/.`,
  };
}

/** Ordered rules plus per-rule call counters (sequence state). Not persisted: reset() forgets. */
export class RuleBook {
  private rules: Rule[] = [];
  private calls = new Map<string, { calls: number; replies: number }>();
  private modelNames = new Set<string>(["scripted-demo"]);

  /** Replaces every rule (mode "replace") or upserts by id (mode "add"); resets affected counters. */
  load(sets: FixtureSet[], mode: "replace" | "add" = "replace"): void {
    if (mode === "replace") {
      this.rules = [];
      this.calls.clear();
    }
    for (const { fixture } of sets) {
      for (const name of fixture.models ?? []) this.modelNames.add(name);
      for (const rule of fixture.rules) {
        const at = this.rules.findIndex((r) => r.id === rule.id);
        if (at >= 0) this.rules[at] = rule;
        else this.rules.push(rule);
        this.calls.delete(rule.id);
      }
    }
  }

  /** Forgets sequence positions and fault counters (rules stay). */
  resetCounters(): void {
    this.calls.clear();
  }

  /** Model names for GET /v1/models. */
  models(): string[] {
    return [...this.modelNames];
  }

  /** Rules in match order: priority descending, then load order (stable sort). */
  ordered(): Rule[] {
    return [...this.rules].sort((a, b) => b.priority - a.priority);
  }

  /** Picks the rule for a request and advances its counters. */
  decide(facts: RequestFacts): Decision {
    const ordered = this.ordered();
    const rule = ordered.find((r) => matches(r.match, facts));
    if (!rule) {
      const near = nearestExample(ordered, facts);
      if (near) return { ...this.answer(near.rule), nearest: Math.round(near.score * 1000) / 1000 };
      return { kind: "reply", ruleId: FALLBACK_RULE_ID, reply: fallbackReply(facts), call: 1 };
    }
    return this.answer(rule);
  }

  /** The chosen rule's answer for this call (its fault, or its next reply); advances its counters. */
  private answer(rule: Rule): Decision {
    const state = this.calls.get(rule.id) ?? { calls: 0, replies: 0 };
    this.calls.set(rule.id, state);
    state.calls += 1;
    const call = state.calls;
    if (rule.fault && (rule.times === undefined || call <= rule.times)) {
      return { kind: "fault", ruleId: rule.id, fault: rule.fault, reply: this.nextReply(rule, state, false), call };
    }
    const reply = this.nextReply(rule, state, true);
    if (!reply) throw new Error(`rule ${rule.id} has no reply`);
    if (reply.fault) return { kind: "fault", ruleId: rule.id, fault: reply.fault, reply, call };
    return { kind: "reply", ruleId: rule.id, reply, call };
  }

  /** The next reply of the rule; `consume` advances the sequence (faulted calls do not). */
  private nextReply(rule: Rule, state: { replies: number }, consume: boolean): Reply | undefined {
    if (rule.reply) return rule.reply;
    const seq = rule.sequence;
    if (!seq) return undefined;
    const k = state.replies;
    if (consume) state.replies += 1;
    if (k < seq.length) return seq[k];
    return rule.then === "cycle" ? seq[k % seq.length] : seq[seq.length - 1];
  }
}

const PLACEHOLDER = /\{\{\s*(lastUser|system|model|lastTool|tools|call)\s*\}\}/g;

/** Replaces {{lastUser}}, {{system}}, {{model}}, {{lastTool}}, {{tools}}, {{call}} in a string. */
export function renderTemplate(s: string, f: RequestFacts, call: number): string {
  return s.replace(PLACEHOLDER, (_m, key: string) => {
    switch (key) {
      case "lastUser":
        return f.lastUser;
      case "system":
        return f.system;
      case "model":
        return f.model;
      case "lastTool":
        return f.lastTool;
      case "tools":
        return f.tools.join(", ");
      default:
        return String(call);
    }
  });
}

/** Applies renderTemplate to every string inside a JSON value. */
export function renderDeep(v: unknown, f: RequestFacts, call: number): unknown {
  if (typeof v === "string") return renderTemplate(v, f, call);
  if (Array.isArray(v)) return v.map((x) => renderDeep(x, f, call));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renderDeep(x, f, call)]));
  }
  return v;
}
