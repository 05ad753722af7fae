import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { corpus } from "@/lib/designer/fixtures/corpus";
import { runB4a } from "./b4a";
import { runArms, summarise } from "./b4b";
import { runB4c } from "./b4c";

/**
 * B4 (docs/benchmarks.md), deterministic — all three parts run on recorded or generated answers:
 * B4a any schema-valid answer (b4a.ts), B4b the corpus against the one-shot peer (b4b.ts), B4c every
 * provider capability path on the corpus (b4c.ts). The full run repeats B4b 5 times interleaved and
 * checks the figures agree, and writes bench/results/designer-b4.json.
 */

const RESULT = path.join(import.meta.dirname, "..", "results", "designer-b4.json");
const SMOKE_IDS = [
  "n01-article",
  "n06-four-solvers-badjson",
  "n08-support-dup-branch",
  "n10-scored-missing-cap",
  "n22-router-never-fixed",
  "e01-fact-checker",
  "e04-shipping-route-dangling",
  "e10-second-traceback-dup-branch",
];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** `npm run bench -- designer [--smoke]`. */
export async function run({ smoke }: { smoke: boolean }): Promise<{ summary: string; ok: boolean }> {
  const entries = smoke ? corpus.filter((e) => SMOKE_IDS.includes(e.id)) : corpus;
  const b4a = await runB4a(smoke ? 60 : 400);
  const raw = await runArms(entries, smoke ? 1 : 5);
  const deterministic = (["designer", "oneShot"] as const).every((a) =>
    raw[a].every((r) => JSON.stringify(r) === JSON.stringify(raw[a][0])),
  );
  const designer = summarise(raw.designer[0]!);
  const peer = summarise(raw.oneShot[0]!);
  const b4c = smoke ? [] : await runB4c();
  const goals = {
    b4a: {
      validZeroExtraAtLeast95: b4a.validZeroExtraShare >= 0.95,
      allEndDoneOrFailed: b4a.endedDoneOrFailed === b4a.answers && b4a.crashes === 0,
      instancesValid: b4a.invalidInstances === 0,
    },
    b4b: {
      validAtLeast97: designer.validShare >= 0.97,
      callsAtMost1_3: designer.callsPerRequest <= 1.3,
      matchAtLeastPeer: designer.goldenMatchShare >= peer.goldenMatchShare,
      tokensAtMostPeer: designer.totalTokensPerRequest <= peer.totalTokensPerRequest,
    },
    b4c: {
      everyPathValidOnCorpus: b4c.every((r) => r.summary.validShare === 1),
      autoFindsEachPath: b4c.filter((r) => r.mode === "auto").every((r) => r.remembered === r.path),
    },
  };
  const line = [
    `B4a ${pct(b4a.validZeroExtraShare)} of ${b4a.answers} valid at 0 extra calls, ${b4a.crashes} crashes`,
    `B4b designer ${designer.callsPerRequest.toFixed(2)} calls/req, ${Math.round(designer.totalTokensPerRequest)} tok/req, ${pct(designer.validShare)} valid, ${pct(designer.goldenMatchShare)} golden | one-shot ${Math.round(peer.totalTokensPerRequest)} tok/req, ${pct(peer.validShare)} valid, ${pct(peer.goldenMatchShare)} golden`,
    ...(b4c.length ? [`B4c ${b4c.map((r) => `${r.path}/${r.mode} ${pct(r.summary.validShare)}`).join(", ")}`] : []),
  ].join(" | ");
  const ok = deterministic && Object.values(goals).every((g) => Object.values(g).every(Boolean));
  if (smoke) return { summary: line, ok: deterministic && b4a.crashes === 0 && goals.b4b.validAtLeast97 };
  const ratio = (k: keyof typeof designer) => designer[k] / peer[k];
  fs.mkdirSync(path.dirname(RESULT), { recursive: true });
  fs.writeFileSync(
    RESULT,
    `${JSON.stringify(
      {
        benchmark:
          "B4 natural language -> graph: any schema-valid answer (B4a), the corpus vs a one-shot generator (B4b), every provider path (B4c)",
        command: "npm run bench -- designer",
        versions: {
          node: process.version,
          tokenizer: "gpt-tokenizer 4.0.0 o200k_base",
          model: "scripted model server over HTTP (lib/designer/llm.ts, the provider's path)",
        },
        machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, platform: os.platform() },
        goals,
        b4a,
        b4b: {
          repetitions: 5,
          deterministic,
          designer,
          oneShot: peer,
          ratios: {
            calls: ratio("callsPerRequest"),
            promptTokens: ratio("promptTokensPerRequest"),
            completionTokens: ratio("completionTokensPerRequest"),
            totalTokens: ratio("totalTokensPerRequest"),
            valid: ratio("validShare"),
            goldenMatch: ratio("goldenMatchShare"),
          },
          smoke: summarise(raw.designer[0]!.filter((r) => SMOKE_IDS.includes(r.id))),
          perRequest: raw.designer[0]!.map((d, i) => ({ id: d.id, designer: d, oneShot: raw.oneShot[0]![i] })),
        },
        b4c,
      },
      null,
      2,
    )}\n`,
  );
  return { summary: line, ok };
}
