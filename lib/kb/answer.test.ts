import { describe, expect, it } from "vitest";
import { answerPrompt, citedSources, type KbSource } from "./answer";

const src = (n: number): KbSource => ({
  label: `S${n}`,
  chunkId: `chunk-${n}-abc`,
  documentId: "d",
  documentName: `doc${n}.pdf`,
  collectionName: "c",
  page: n,
  heading: null,
  text: `text ${n}`,
});
const sources = [src(1), src(2), src(3)];

describe("citedSources", () => {
  it("reads [S2], [S1, S3] and written-out chunk ids, in order of first citation", () => {
    expect(citedSources("A [S2]. B [S1, S3]. Again [S2].", sources).map((s) => s.label)).toEqual(["S2", "S1", "S3"]);
    expect(citedSources("See chunk-3-abc and [chunk:chunk-1-abc].", sources).map((s) => s.label)).toEqual(["S3", "S1"]);
  });

  it("ignores labels that are not citations or not given", () => {
    expect(citedSources("S1 is mentioned without brackets; [S9] does not exist.", sources)).toEqual([]);
  });
});

describe("answerPrompt", () => {
  it("labels each source with its document, page and chunk id", () => {
    const [system, user] = answerPrompt("Q?", sources.slice(0, 1));
    expect(system!.content).toContain("[[kb-answer]]");
    expect(user!.content).toContain("Question: Q?");
    expect(user!.content).toContain("[S1] (doc1.pdf, page 1; chunk chunk-1-abc)\ntext 1");
  });
});
