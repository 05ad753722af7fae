/** Small statistics helpers shared by the benchmark harnesses. */
export function quantile(samples: number[], q: number): number {
  if (!samples.length) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (samples: number[]): number => quantile(samples, 0.5);
export const p95 = (samples: number[]): number => quantile(samples, 0.95);

/**
 * A 95 % bootstrap interval of median(a) ÷ median(b) for paired samples (a[i] and b[i] measured one
 * after the other): the repetitions are resampled with replacement, pairs kept together, `rounds`
 * times, and the 2.5th and 97.5th percentiles of the resampled ratios are answered. The resampling
 * is seeded, so the same samples always give the same interval. It says how far the ratio of one
 * benchmark run could move from its repetitions' spread alone; drift between runs minutes apart
 * comes on top.
 */
export function bootstrapRatioOfMedians(
  a: readonly number[],
  b: readonly number[],
  rounds = 2000,
  seed = 1,
): [number, number] {
  if (a.length !== b.length || a.length === 0)
    throw new Error("bootstrapRatioOfMedians needs paired samples of equal, non-zero length");
  const next = mulberry32(seed);
  const ratios: number[] = [];
  const ra: number[] = new Array(a.length);
  const rb: number[] = new Array(b.length);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < a.length; i++) {
      const j = Math.floor(next() * a.length);
      ra[i] = a[j]!;
      rb[i] = b[j]!;
    }
    ratios.push(median(ra) / median(rb));
  }
  return [quantile(ratios, 0.025), quantile(ratios, 0.975)];
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Machine facts recorded with every result file. */
export async function machine(): Promise<Record<string, unknown>> {
  const os = await import("node:os");
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: os.platform(),
  };
}

/** Writes a result JSON under bench/results/. */
export async function writeResult(file: string, data: unknown): Promise<string> {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const out = path.join(import.meta.dirname, "results", file);
  fs.writeFileSync(out, JSON.stringify(data, null, 2) + "\n");
  return out;
}

/** Reads a stored result, or undefined when none has been committed yet. */
export async function readResult<T>(file: string): Promise<T | undefined> {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const p = path.join(import.meta.dirname, "results", file);
  return fs.existsSync(p) ? (JSON.parse(fs.readFileSync(p, "utf8")) as T) : undefined;
}
