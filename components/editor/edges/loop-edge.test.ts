import { describe, expect, it } from "vitest";
import { loopRunY } from "./loop-edge";

const box = (x0: number, y0: number, w = 224, h = 100) => ({ x0, x1: x0 + w, y0, y1: y0 + h });

describe("loopRunY (a loop's run back under the canvas)", () => {
  it("runs below both ends when nothing is in the way", () => {
    const y = loopRunY([box(0, 0), box(560, 0)], { x: 784, y: 26 }, { x: 560, y: 26 });
    expect(y).toBeGreaterThan(100);
  });

  it("never crosses a node between its ends: it takes the gap between rows when there is room, else passes under", () => {
    const ends = [box(0, 0), box(600, 0)];
    // the next row leaves a 60 px gap: the run takes it, clear of both rows
    const roomy = box(300, 160, 224, 120);
    const y1 = loopRunY([...ends, roomy], { x: 824, y: 26 }, { x: 0, y: 26 });
    expect(y1).toBeGreaterThan(100);
    expect(y1).toBeLessThan(roomy.y0);
    // a node just below the ends leaves no room: the run passes under it
    const tight = box(300, 110, 224, 120);
    const y2 = loopRunY([...ends, tight], { x: 824, y: 26 }, { x: 0, y: 26 });
    expect(y2).toBeGreaterThan(tight.y1);
  });

  it("ignores nodes outside its stretch", () => {
    const far = box(2000, 100, 224, 400);
    expect(loopRunY([box(0, 0), box(560, 0), far], { x: 784, y: 26 }, { x: 560, y: 26 })).toBe(
      loopRunY([box(0, 0), box(560, 0)], { x: 784, y: 26 }, { x: 560, y: 26 }),
    );
  });
});
