import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { McpServersSection } from "./mcp-servers-section";
import { TestResults } from "./test-results";
import type { ToolView } from "./types";

const ok = async () => ({ ok: true as const, message: "ok" });

describe("tools components (server markup)", () => {
  it("test results: one row per case with pass/fail, the error instead of the actual value", () => {
    const html = renderToStaticMarkup(
      <TestResults
        results={[
          { input: { from: 100, to: 112 }, expected: { percent: 12 }, passed: true, actual: { percent: 12 } },
          {
            input: { from: 50, to: 25 },
            expected: { percent: -50 },
            passed: false,
            error: "timeout: deadline exceeded",
          },
        ]}
      />,
    );
    expect(html.match(/data-testid="tool-test"/g)).toHaveLength(2);
    expect(html).toContain('data-passed="true"');
    expect(html).toContain('data-passed="false"');
    expect(html).toContain("timeout: deadline exceeded");
    expect(renderToStaticMarkup(<TestResults results={[]} />)).toContain("No recorded tests");
  });

  it("MCP servers: each connection with its approval, HTTP URL or stdio command line", () => {
    const servers: ToolView[] = [
      {
        key: "t1",
        id: "t1",
        name: "files",
        kind: "mcp",
        description: "",
        versions: [],
        runningVersion: 1,
        mcp: { config: { transport: "stdio", command: "npx", args: ["-y", "srv"] } },
      },
      {
        key: "t2",
        id: "t2",
        name: "remote",
        kind: "mcp",
        description: "",
        versions: [],
        mcp: { config: { transport: "http", url: "https://mcp.example.com/mcp", headerNames: [] } },
      },
    ];
    const html = renderToStaticMarkup(
      <McpServersSection servers={servers} actions={{ save: async () => null, remove: ok }} stdioEnabled={false} />,
    );
    expect(html).toContain('data-name="files"');
    expect(html).toContain("npx -y srv");
    expect(html).toContain("https://mcp.example.com/mcp");
    expect(html).toContain("approved");
    expect(html).toContain("not approved");
    expect(
      renderToStaticMarkup(
        <McpServersSection servers={[]} actions={{ save: async () => null, remove: ok }} stdioEnabled />,
      ),
    ).toContain("No MCP servers connected");
  });
});
