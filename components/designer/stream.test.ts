import { describe, expect, it } from "vitest";
import { designerModelInfo } from "./stream";

describe("designer stream", () => {
  it("reads the designing model from the response headers", () => {
    expect(
      designerModelInfo(
        new Headers({
          "x-weft-designer-model": encodeURIComponent("Scripted demo model"),
          "x-weft-designer-offline": "1",
        }),
      ),
    ).toEqual({ name: "Scripted demo model", offline: true });
    expect(designerModelInfo(new Headers({ "x-weft-designer-model": "gpt-4o-mini" }))).toEqual({
      name: "gpt-4o-mini",
      offline: false,
    });
    expect(designerModelInfo(new Headers({ "x-weft-designer-model": "%E0%A4%A" }))).toEqual({
      name: "%E0%A4%A",
      offline: false,
    });
    expect(designerModelInfo(new Headers())).toEqual({ name: null, offline: false });
  });
});
