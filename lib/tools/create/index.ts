/** Tool creation loop (write → test in the sandbox → fix, ≤ 3 rounds → owner approval) and reuse. */
export {
  createTool,
  findReusableTool,
  toolDraftSchema,
  REUSE_THRESHOLD,
  DUPLICATE_THRESHOLD,
  type CreateToolOutcome,
  type CreateToolProgress,
  type ToolDraft,
} from "./create";
export { runToolTests, describeFailures, canonical, type ToolTestCase, type ToolTestResult } from "./tests";
export { similarity, terms } from "@/lib/similarity";
export { runToolCreator } from "./in-run";
