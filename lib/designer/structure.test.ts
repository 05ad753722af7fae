import { describe, expect, it } from "vitest";
import { golden, matchStructure } from "./structure";

describe("structural comparison", () => {
  const evalLoop = golden("s:start g:agent r:agent/2 e:end", "s>g g>r r>e r~g/3");

  it("ignores ids and node order", () => {
    const actual = golden(
      "end:end review:agent/2 begin:start gen:agent",
      "begin>gen gen>review review~gen/3 review>end",
    );
    expect(matchStructure(evalLoop, actual)).toEqual({ match: true });
  });

  it("tells forward from loop edges, and checks a cap only when the golden gives one", () => {
    expect(matchStructure(evalLoop, golden("s:start g:agent r:agent/2 e:end", "s>g g>r r>e r>g")).match).toBe(false);
    expect(matchStructure(evalLoop, golden("s:start g:agent r:agent/2 e:end", "s>g g>r r>e r~g/5")).match).toBe(false);
    const uncapped = golden("s:start g:agent r:agent/2 e:end", "s>g g>r r>e r~g");
    expect(matchStructure(uncapped, golden("s:start g:agent r:agent/2 e:end", "s>g g>r r>e r~g/5")).match).toBe(true);
  });

  it("reports what differs: counts, kinds, branch counts, wiring", () => {
    expect(matchStructure(evalLoop, golden("s:start g:agent e:end", "s>g g>e")).why).toMatch(/nodes/);
    expect(matchStructure(evalLoop, golden("s:start g:agent r:router/2 e:end", "s>g g>r r>e r~g/3")).why).toMatch(
      /kinds/,
    );
    expect(matchStructure(evalLoop, golden("s:start g:agent/2 r:agent e:end", "s>g g>r r>e r~g/3")).match).toBe(false);
    expect(matchStructure(evalLoop, golden("s:start g:agent r:agent/2 e:end", "s>r r>g g>e g~r/3")).match).toBe(false);
  });

  it("counts parallel edges (a multiset, not a set)", () => {
    const two = golden("s:start v:agent/3 p:agent e:end", "s>p p>v v>e v~p v~p");
    expect(matchStructure(two, golden("s:start v:agent/3 p:agent e:end", "s>p p>v v>e v~p v>e")).match).toBe(false);
    expect(matchStructure(two, two).match).toBe(true);
  });
});
