import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { nodeKinds } from "@/lib/workflow/schema";
import { Palette } from "./palette";

describe("Palette", () => {
  it("offers every node kind in schema order, human review and subflow included", () => {
    const html = renderToStaticMarkup(<Palette onAdd={() => {}} />);
    expect([...html.matchAll(/data-testid="palette-([a-z]+)"/g)].map((m) => m[1])).toEqual([...nodeKinds]);
    // each with its kind's icon and word (components/terms), its hint as the tooltip
    expect(html).toMatch(/data-testid="palette-human"[^>]*>.*?<span>Human review<\/span><\/button>/);
    expect(html).toMatch(
      /data-testid="palette-subflow"[^>]*title="Runs another saved workflow as one step[^"]*"[^>]*>.*?<svg.*?<span>Subflow<\/span>/,
    );
  });
});
