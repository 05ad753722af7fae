import { describe, expect, it } from "vitest";
import { runTriggers } from "@/lib/workflow/runs";
import { describeTrigger, TRIGGER_NAMES } from "./trigger";

describe("describeTrigger", () => {
  it("names every trigger the Run row may hold", () => {
    for (const t of runTriggers) expect(TRIGGER_NAMES[t]).toMatch(/\S/);
  });

  it("adds the recorded label, and shortens a re-run's run id", () => {
    expect(describeTrigger("manual")).toBe("Manual");
    expect(describeTrigger("api", null)).toBe("API");
    expect(describeTrigger("api", "token deploy-bot")).toBe("API · token deploy-bot");
    expect(describeTrigger("schedule", "0 9 * * 1-5 (Europe/Paris)")).toBe("Schedule · 0 9 * * 1-5 (Europe/Paris)");
    expect(describeTrigger("rerun", "cmabc1234567890")).toBe("Re-run of cmabc123");
  });
});
