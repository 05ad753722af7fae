/**
 * Random instances of a JSON schema, seeded — B4a's generator. It knows JSON Schema and nothing
 * else: not the designer, not its repairs, not what a field means. It reads type, enum, const,
 * anyOf/oneOf, $ref/$defs, properties/required, additionalProperties, items, minItems/maxItems,
 * pattern (a regex subset: literals, classes, escapes, groups of alternatives, quantifiers),
 * minLength/maxLength and minimum/maximum. Strings are random text; a string with a pattern is new
 * or (half the time) one already produced for the same pattern, so some references in an answer
 * name something and others name nothing, as a model's do.
 */

export type JsonSchema = { [key: string]: unknown };

/** A seeded PRNG (mulberry32): the same seed gives the same instances. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One piece of a pattern: a character class (or literal), or a group of alternative sequences; with its repeat range. */
type Atom = ({ chars: string[] } | { alts: Atom[][] }) & { min: number; max: number };

const range = (from: string, to: string) =>
  Array.from({ length: to.charCodeAt(0) - from.charCodeAt(0) + 1 }, (_, i) =>
    String.fromCharCode(from.charCodeAt(0) + i),
  );

function parseClass(body: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i] === "\\" ? body[++i]! : body[i]!;
    if (body[i + 1] === "-" && i + 2 < body.length) {
      out.push(...range(c, body[i + 2]!));
      i += 2;
    } else out.push(c);
  }
  return out;
}

/** Atoms of an anchored pattern of the supported subset; throws on anything else. */
export function parsePattern(pattern: string): Atom[] {
  const src = pattern.replace(/^\^/, "").replace(/\$$/, "");
  const unsupported = () => new Error(`unsupported pattern ${pattern}`);
  let i = 0;
  // a sequence up to `|`, `)` or the end
  const sequence = (): Atom[] => {
    const atoms: Atom[] = [];
    while (i < src.length && src[i] !== "|" && src[i] !== ")") {
      let atom: { chars: string[] } | { alts: Atom[][] };
      if (src[i] === "[") {
        const end = src.indexOf("]", i + 1);
        if (end < 0 || src[i + 1] === "^") throw unsupported();
        atom = { chars: parseClass(src.slice(i + 1, end)) };
        i = end + 1;
      } else if (src[i] === "(") {
        if (src[i + 1] === "?") throw unsupported();
        i++;
        const alts = [sequence()];
        while (src[i] === "|") {
          i++;
          alts.push(sequence());
        }
        if (src[i] !== ")") throw unsupported();
        i++;
        atom = { alts };
      } else if (src[i] === "\\") {
        atom = { chars: [src[i + 1]!] };
        i += 2;
      } else if (".*+?{".includes(src[i]!)) {
        throw unsupported();
      } else atom = { chars: [src[i++]!] };
      let min = 1;
      let max = 1;
      const q = /^(\{(\d+)(,(\d*))?\}|\*|\+|\?)/.exec(src.slice(i));
      if (q) {
        i += q[0].length;
        if (q[0] === "*") [min, max] = [0, 8];
        else if (q[0] === "+") [min, max] = [1, 8];
        else if (q[0] === "?") [min, max] = [0, 1];
        else [min, max] = [Number(q[2]), q[3] === undefined ? Number(q[2]) : q[4] ? Number(q[4]) : Number(q[2]) + 8];
      }
      atoms.push({ ...atom, min, max });
    }
    return atoms;
  };
  const atoms = sequence();
  if (i < src.length) throw unsupported(); // a `|` or `)` outside a group
  return atoms;
}

const WORDS = [
  "plan",
  "check",
  "Write",
  "data",
  "review",
  "step",
  "x",
  "answer",
  "topic",
  "final",
  "de",
  "über",
  "2nd",
  "A-B",
  "q_1",
];
const NOISE = " -_.,:;!?/\\'\"{}[]()#@";

export class SchemaSampler {
  private pools = new Map<string, string[]>();
  private defs: Record<string, JsonSchema> = {};

  constructor(private rand: () => number) {}

  private int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)]!;
  }

  /** Free text: words, noise characters, sometimes empty. */
  private text(min = 0, max = 40): string {
    if (min === 0 && this.rand() < 0.1) return "";
    let s = "";
    const target = this.int(Math.max(min, 1), Math.min(max, 40));
    while (s.length < target) s += this.rand() < 0.7 ? `${this.pick(WORDS)} ` : this.pick([...NOISE]);
    return s.slice(0, Math.max(min, Math.min(max, s.length)));
  }

  /** A random string of a parsed pattern. */
  private spell(atoms: Atom[]): string {
    return atoms
      .map((a) =>
        Array.from({ length: this.int(a.min, Math.min(a.max, a.min + 10)) }, () =>
          "chars" in a ? this.pick(a.chars) : this.spell(this.pick(a.alts)),
        ).join(""),
      )
      .join("");
  }

  private patterned(pattern: string): string {
    const pool = this.pools.get(pattern) ?? [];
    if (pool.length && this.rand() < 0.5) return this.pick(pool);
    const s = this.spell(parsePattern(pattern));
    this.pools.set(pattern, [...pool, s]);
    return s;
  }

  /** A random value valid against `schema` (its `$defs` resolve `$ref`s). */
  sample(schema: JsonSchema, root = true): unknown {
    if (root && schema.$defs) this.defs = schema.$defs as Record<string, JsonSchema>;
    if (typeof schema.$ref === "string") {
      const { $ref, ...beside } = schema;
      return this.sample({ ...this.defs[$ref.replace("#/$defs/", "")]!, ...beside }, false);
    }
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return this.enumValue(schema.enum);
    const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (union) return this.sample(this.pick(union), false);
    const type = Array.isArray(schema.type) ? this.pick(schema.type as string[]) : (schema.type as string | undefined);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return this.rand() < 0.5;
      case "integer":
      case "number": {
        const min = typeof schema.minimum === "number" ? schema.minimum : -5;
        const max = typeof schema.maximum === "number" ? schema.maximum : min + 20;
        const n = min + this.rand() * (max - min);
        return type === "integer" ? Math.ceil(n) : n;
      }
      case "string":
        return typeof schema.pattern === "string"
          ? this.patterned(schema.pattern)
          : this.text(Number(schema.minLength ?? 0), Number(schema.maxLength ?? 40));
      case "array":
        return this.array(schema);
      case "object":
        return this.object(schema);
      default:
        return this.pick([this.text(), this.int(0, 9), this.rand() < 0.5, null]);
    }
  }

  private enumValue(values: unknown[]): unknown {
    const v = this.pick(values);
    if (typeof v === "string")
      for (const [pattern, pool] of this.pools) if (new RegExp(pattern).test(v) && !pool.includes(v)) pool.push(v);
    return v;
  }

  private array(schema: JsonSchema): unknown[] {
    const min = Number(schema.minItems ?? 0);
    const max = typeof schema.maxItems === "number" ? schema.maxItems : min + 6;
    return Array.from({ length: this.int(min, max) }, () => this.sample((schema.items ?? {}) as JsonSchema, false));
  }

  private object(schema: JsonSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (required.has(k) || this.rand() < 0.6) out[k] = this.sample(v, false);
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === "object" && !schema.properties) {
      for (let i = this.int(0, 4); i > 0; i--)
        out[this.patterned("^[a-z][a-z_]{0,8}$")] = this.sample(extra as JsonSchema, false);
    }
    return out;
  }
}
