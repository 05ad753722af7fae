import { readFileSync, readdirSync } from "node:fs";

/**
 * CPU time of other processes, for the engine diagnostics (cpu-split.ts, phases.ts): Linux
 * /proc/<pid>/schedstat, whose first field is the time the process's main thread ran on a CPU, in ns
 * (/proc/<pid>/task/<tid>/schedstat per thread, summed here over all threads).
 */

/** CPU ms used so far by every thread of `pid`; 0 once the process is gone. */
export function cpuMsOf(pid: number): number {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return 0;
  }
}

/** Pids of the processes whose command name starts with `name` (e.g. "postgres", "redis-server"). */
export function pidsNamed(name: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/comm`, "utf8").trim().startsWith(name);
      } catch {
        return false;
      }
    });
}

/** CPU ms so far of every process named `name`, by pid (a process that exits in between is not counted by cpuMsSince). */
export const cpuByPid = (name: string): Map<number, number> => new Map(pidsNamed(name).map((p) => [p, cpuMsOf(p)]));

/** CPU ms used between two cpuByPid snapshots by the processes of `after` (a process gone by then is not counted, a new one counts whole). */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [p, v] of after) ms += v - (before.get(p) ?? 0);
  return ms;
}

/** CPU ms used since `before` (a cpuByPid snapshot) by the processes named `name` now. */
export const cpuMsSince = (before: Map<number, number>, name: string): number => cpuMsBetween(before, cpuByPid(name));
