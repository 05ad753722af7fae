/**
 * The deterministic repairs the designer makes without a model call, by kind: each fix is recorded
 * with its kind, the chat lists them ("repaired: 3 ids renamed, 1 agent created") and B4a reports the
 * share of answers needing each kind. Isomorphic (the chat panel imports it).
 */

/** Every kind of local repair, with how the chat counts it (singular, plural). */
export const REPAIR_KINDS = {
  answer_unwrapped: ["answer unwrapped", "answers unwrapped"],
  id_renamed: ["id renamed", "ids renamed"],
  field_dropped: ["field dropped", "fields dropped"],
  field_moved: ["field moved", "fields moved"],
  kind_mapped: ["kind mapped", "kinds mapped"],
  reference_resolved: ["reference resolved", "references resolved"],
  reference_dropped: ["reference dropped", "references dropped"],
  agent_created: ["agent created", "agents created"],
  node_created: ["node created", "nodes created"],
  start_added: ["start added", "starts added"],
  start_merged: ["extra start merged", "extra starts merged"],
  end_added: ["end added", "ends added"],
  edge_dropped: ["edge dropped", "edges dropped"],
  node_removed: ["stray end removed", "stray ends removed"],
  node_wired: ["node wired", "nodes wired"],
  data_wired: ["data edge added", "data edges added"],
  outcome_wired: ["outcome wired", "outcomes wired"],
  branch_added: ["branch added", "branches added"],
  loop_made: ["cycle made a loop", "cycles made loops"],
  loop_capped: ["loop capped", "loops capped"],
  loop_fixed: ["loop fixed", "loops fixed"],
  condition_filled: ["condition filled", "conditions filled"],
  output_written: ["output written", "outputs written"],
  field_declared: ["field declared", "fields declared"],
  template_fixed: ["template fixed", "templates fixed"],
  worker_assigned: ["worker assigned", "workers assigned"],
  items_chosen: ["map list chosen", "map lists chosen"],
  operation_fixed: ["operation fixed", "operations fixed"],
  operation_dropped: ["no-op dropped", "no-ops dropped"],
} as const;

export type RepairKind = keyof typeof REPAIR_KINDS;

/** One repair made locally: what kind, the issue code it answers, and a sentence for the chat. */
export type LocalFix = { repair: RepairKind; code: string; message: string };

/** Builds a fix (code defaults to the repair kind). */
export const fix = (repair: RepairKind, message: string, code: string = repair): LocalFix => ({
  repair,
  code,
  message,
});

/** How many fixes of each kind, in REPAIR_KINDS order. */
export function countByKind(fixes: readonly Pick<LocalFix, "repair">[]): [RepairKind, number][] {
  const counts = new Map<RepairKind, number>();
  for (const f of fixes) counts.set(f.repair, (counts.get(f.repair) ?? 0) + 1);
  return (Object.keys(REPAIR_KINDS) as RepairKind[]).filter((k) => counts.has(k)).map((k) => [k, counts.get(k)!]);
}

/** "3 ids renamed, 1 agent created" (empty string when there is nothing). */
export function summariseFixes(fixes: readonly Pick<LocalFix, "repair">[]): string {
  return countByKind(fixes)
    .map(([kind, n]) => `${n} ${REPAIR_KINDS[kind][n === 1 ? 0 : 1]}`)
    .join(", ");
}
