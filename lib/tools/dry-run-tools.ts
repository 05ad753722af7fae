import type { ToolsPort } from "@/lib/engine/ports";

/**
 * Tools for a run nobody keeps (the designer's dry run, "Simplify this workflow"'s evaluation):
 * read-only tools run for real; side-effecting ones are not performed.
 */
export function dryRunTools(inner: ToolsPort): ToolsPort {
  const sideEffects = new Map<string, boolean>();
  return {
    async resolve(ref) {
      const d = await inner.resolve(ref);
      if (d) sideEffects.set(ref.name, d.sideEffect);
      return d;
    },
    async call(request) {
      if (sideEffects.get(request.ref.name) ?? true) {
        return { ok: true, output: `(dry run: "${request.ref.name}" has side effects and was not called)` };
      }
      return inner.call(request);
    },
  };
}
