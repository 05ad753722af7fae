/**
 * The requests "Describe the system you want" offers as examples (components/designer/describe-form).
 * Each is a corpus request, so the offline demo's scripted model designs it exactly (demo.test.ts).
 */
export const DESIGN_EXAMPLES = [
  "Write a research article on a topic: research it, outline it, have a critic check the outline and send it back until good, then write it",
  "Triage customer messages: purchases go to sales, refund requests to the refund agent",
  "Solve a math problem with three solvers on three different models and take the majority answer",
] as const;
