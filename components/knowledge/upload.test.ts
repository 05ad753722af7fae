import { describe, expect, it } from "vitest";
import { formatBytes, outcomeOf, precheck } from "./upload";

const accept = [".pdf", ".md", ".csv"];

describe("precheck", () => {
  it("refuses unsupported types, empty and oversized files with a reason", () => {
    expect(precheck({ name: "a.exe", size: 10 }, accept, 100)).toMatch(
      /Unsupported file type\. Upload \.pdf, \.md, \.csv/,
    );
    expect(precheck({ name: "a.pdf", size: 0 }, accept, 100)).toBe("The file is empty.");
    expect(precheck({ name: "a.PDF", size: 2_000_000 }, accept, 1_048_576)).toBe(
      "The file is 1.9 MB; the limit is 1.0 MB.",
    );
    expect(precheck({ name: "notes.md", size: 50 }, accept, 100)).toBeNull();
  });
});

describe("outcomeOf", () => {
  it("reads created, duplicate and error answers", () => {
    expect(outcomeOf(201, { document: { chunkCount: 4 }, duplicate: false })).toEqual({
      state: "done",
      chunks: 4,
      duplicate: false,
    });
    expect(outcomeOf(200, { document: { chunkCount: 2 }, duplicate: true })).toEqual({
      state: "done",
      chunks: 2,
      duplicate: true,
    });
    expect(outcomeOf(400, { error: { message: "x.pdf could not be read as a PDF." } })).toEqual({
      state: "error",
      message: "x.pdf could not be read as a PDF.",
    });
    expect(outcomeOf(502, null)).toEqual({ state: "error", message: "The server answered 502. Retry." });
  });

  it("formats sizes", () => {
    expect([formatBytes(812), formatBytes(14_540), formatBytes(3_250_000)]).toEqual(["812 B", "14.2 KB", "3.1 MB"]);
  });
});
