"use client";
import { Badge } from "@/components/ui/badge";
import type { InputRequestView } from "./run-fold";

type Tool = NonNullable<InputRequestView["tool"]>;

const json = (v: unknown) => (v === undefined ? "—" : JSON.stringify(v));

/**
 * A tool an agent wrote during the run, as its owner reviews it: the code that approving approves
 * (by its hash), what it may reach, and the tests it passed in the sandbox.
 */
export function ToolUnderReview({ tool }: { tool: Tool }) {
  const passed = tool.tests.filter((t) => t.passed).length;
  return (
    <div className="grid gap-2" data-testid="tool-review">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-mono font-semibold">{tool.name}</span>
        <span className="text-xs text-muted">version {tool.version}</span>
        <Badge tone={passed === tool.tests.length ? "success" : "warning"} data-testid="tool-review-tests">
          {passed} of {tool.tests.length} tests passed
        </Badge>
        <Badge tone={tool.allowedDomains.length ? "warning" : "neutral"}>
          {tool.allowedDomains.length ? `network: ${tool.allowedDomains.join(", ")}` : "no network"}
        </Badge>
        <span className="text-xs text-muted">
          written in {tool.rounds} round{tool.rounds === 1 ? "" : "s"}
        </span>
      </div>
      <p className="text-sm">{tool.description}</p>
      <pre
        className="max-h-72 overflow-auto rounded-md bg-surface-2 p-3 font-mono text-xs"
        data-testid="tool-review-code"
      >
        {tool.code}
      </pre>
      <p className="break-all font-mono text-[11px] text-muted" title="Approving approves exactly this code">
        sha256 {tool.codeHash}
      </p>
      <table className="w-full text-left text-xs">
        <thead className="text-muted">
          <tr>
            <th className="py-1 pr-2 font-medium">input</th>
            <th className="py-1 pr-2 font-medium">expected</th>
            <th className="py-1 pr-2 font-medium">actual</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {tool.tests.map((t, i) => (
            <tr key={i} className={t.passed ? "" : "text-danger"}>
              <td className="py-1 pr-2 align-top">{json(t.input)}</td>
              <td className="py-1 pr-2 align-top">{json(t.expected)}</td>
              <td className="py-1 pr-2 align-top">{t.error ?? json(t.actual)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
