import type { WorkflowInput } from "./schema";

/**
 * The subflow example the demo account is seeded with (lib/db/demo-seed.ts) and the README's
 * screenshots show: two subflows running the saved "Article writer" in parallel, one per topic,
 * joined into one end. Pure data, so seeds, tests and browser specs share it.
 */

/** Its name (the seed finds it by name). */
export const TWO_ARTICLES_NAME = "Two articles at once";
/** The example as a document running the owner's Article writer (`articleWriterId`). */
export function twoArticles(articleWriterId: string): WorkflowInput {
  const sub = (id: string, input: string, y: number) => ({
    id,
    type: "subflow" as const,
    name: `Article on ${input}`,
    workflowId: articleWriterId,
    inputs: { topic: `{{inputs.${input}}}` },
    position: { x: 320, y },
  });
  return {
    name: TWO_ARTICLES_NAME,
    description:
      "Runs the saved Article writer twice in parallel (two subflows), one run per topic, and returns both articles.",
    inputs: [
      { key: "first", type: "string", description: "The first article's topic" },
      { key: "second", type: "string", description: "The second article's topic" },
    ],
    outputs: [
      { key: "first", type: "text", description: "The first article" },
      { key: "second", type: "text", description: "The second article" },
    ],
    nodes: [
      { id: "start", type: "start", position: { x: 40, y: 140 } },
      sub("first_article", "first", 40),
      sub("second_article", "second", 240),
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 140 },
        outputs: { first: "{{nodes.first_article.output.article}}", second: "{{nodes.second_article.output.article}}" },
      },
    ],
    edges: [
      { id: "start-first", source: "start", sourceHandle: "next", target: "first_article" },
      { id: "start-second", source: "start", sourceHandle: "next", target: "second_article" },
      { id: "first-end", source: "first_article", sourceHandle: "done", target: "end" },
      { id: "second-end", source: "second_article", sourceHandle: "done", target: "end" },
    ],
  };
}
