import { evaluateCondition } from "@/lib/workflow/expression";
import { renderTemplate } from "@/lib/workflow/template";
import type { NodeOf } from "@/lib/workflow/schema";
import { chooseBranch } from "./branch";
import { measured, resolveModel } from "./common";
import { StepError } from "../errors";
import { noUsage, type Executor, type StepContext } from "./types";

/**
 * Router node: picks exactly one branch. `llm` mode asks the model through a structured choice whose
 * enum is the branch ids (R5); `expression` mode evaluates each branch's safe expression in order
 * (lib/workflow/expression — no eval) and falls back only to a branch explicitly marked `default`.
 * Output: {branch, reason?}.
 */
export const routerExecutor: Executor<"router"> = (ctx) => {
  const usage = noUsage();
  return measured(ctx, usage, async () => {
    if (ctx.node.mode === "expression") {
      const branch = byExpression(ctx);
      return { output: { branch }, branch };
    }
    const model = resolveModel(ctx.workflow, ctx.node.model);
    const prompt = renderTemplate(ctx.node.prompt, ctx.data);
    const choice = await chooseBranch(
      ctx,
      model,
      [
        {
          role: "system",
          content: "You are a router. Read the request and pick the one outcome whose condition it meets.",
        },
        { role: "user", content: prompt },
      ],
      ctx.node.branches,
      usage,
    );
    return { output: choice, branch: choice.branch };
  });
};

function byExpression(ctx: StepContext<"router">): string {
  const node: NodeOf<"router"> = ctx.node;
  for (const b of node.branches) {
    if (b.default || !b.expression) continue;
    try {
      if (evaluateCondition(b.expression, ctx.data)) return b.id;
    } catch (err) {
      throw new StepError(
        `branch "${b.id}" expression is invalid: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  const fallback = node.branches.find((b) => b.default);
  if (fallback) return fallback.id;
  throw new StepError(
    `no branch expression matched and no default branch is declared (branches: ${node.branches.map((b) => b.id).join(", ")})`,
  );
}
