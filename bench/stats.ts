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

/** Machine facts recorded with every result file. */
export async function machine(): Promise<Record<string, unknown>> {
  const os = await import("node:os");
  return { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), platform: os.platform() };
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
