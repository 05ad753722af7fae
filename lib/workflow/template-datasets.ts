/**
 * The small dataset each pattern template ships with (docs/evaluations.md, "Templates' datasets"):
 * a few cases on the template's input fields, with a reference where one answer is right (the
 * triage template's route) and tags. "Post with approval" has none: each of its runs waits for a
 * person. Pure data; lib/evals creates the workflow and its dataset from it.
 */

/** One case: inputs on the template's input fields, an optional reference, tags. */
export interface TemplateCase {
  inputs: Record<string, string>;
  reference?: unknown;
  tags: string[];
}

/** Per template id: the dataset's name and its cases. */
export const templateDatasets: Readonly<Record<string, { name: string; cases: readonly TemplateCase[] }>> = {
  "article-writer": {
    name: "Article topics",
    cases: [
      { inputs: { topic: "Durable workflow engines" }, tags: ["tech"] },
      { inputs: { topic: "Why teams write postmortems" }, tags: ["process"] },
      { inputs: { topic: "Caching for read-heavy web apps" }, tags: ["tech"] },
      { inputs: { topic: "Onboarding a new engineer in a week" }, tags: ["process"] },
    ],
  },
  "majority-vote": {
    name: "Arithmetic problems",
    cases: [
      { inputs: { problem: "What is 17 × 23?" }, reference: "391", tags: ["arithmetic"] },
      { inputs: { problem: "What is 144 ÷ 12?" }, reference: "12", tags: ["arithmetic"] },
      { inputs: { problem: "What is 2 to the power of 10?" }, reference: "1024", tags: ["arithmetic"] },
    ],
  },
  "refund-triage": {
    name: "Customer messages",
    cases: [
      { inputs: { message: "I want my money back for order 42, it arrived broken" }, tags: ["refund"] },
      { inputs: { message: "Which kettles do you sell? I would like to buy one" }, tags: ["purchase"] },
      { inputs: { message: "Please refund my order, the size is wrong and I want to return it" }, tags: ["refund"] },
      { inputs: { message: "Do you have this product in blue? I want to order two" }, tags: ["purchase"] },
    ],
  },
  "ml-pipeline": {
    name: "Datasets to model",
    cases: [
      { inputs: { dataset: "s3://demo/churn.csv: 10k customers, churn labels" }, tags: ["classification"] },
      { inputs: { dataset: "s3://demo/prices.parquet: 2 years of daily house prices" }, tags: ["regression"] },
      { inputs: { dataset: "s3://demo/tickets.jsonl: 50k support tickets with categories" }, tags: ["text"] },
    ],
  },
  "research-each": {
    name: "Research questions",
    cases: [
      {
        inputs: { question: "Should a small team run its own PostgreSQL or use a managed one?" },
        tags: ["infrastructure"],
      },
      { inputs: { question: "What makes an onboarding programme shorten time to first commit?" }, tags: ["process"] },
      { inputs: { question: "How do heat pumps compare with gas boilers in cold climates?" }, tags: ["energy"] },
    ],
  },
  "financial-analyst": {
    name: "Analysis requests",
    cases: [
      { inputs: { request: "Analyse ACME's latest 10-K and its market" }, tags: ["filing"] },
      { inputs: { request: "How exposed is ACME to interest rate changes?" }, tags: ["risk"] },
      { inputs: { request: "Compare ACME's margins with its two largest competitors" }, tags: ["market"] },
    ],
  },
};
