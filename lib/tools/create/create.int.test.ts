import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { approveToolVersion, findTool, recordedTests, revokeToolVersion } from "@/lib/db/tools";
import { scriptedModelConfig } from "@/lib/llm/models";
import { startScriptedServer } from "@/lib/llm/scripted/server";
import { createTestUser } from "@/test/fixtures";
import { executeTool } from "@/lib/tools/registry";
import { useTestDatabase } from "@/test/db";
import { createTool, type CreateToolProgress } from "./create";
import { similarity } from "@/lib/similarity";

useTestDatabase();

let server: Awaited<ReturnType<typeof startScriptedServer>>;
beforeAll(async () => {
  server = await startScriptedServer({ fixtures: path.resolve(process.cwd(), "lib/tools/fixtures") });
});
afterAll(() => server.close());

const config = () => ({ ...scriptedModelConfig(), baseURL: server.url });

test("first attempt fails its test, the fixed second attempt is approved and registered; a similar request reuses it", async () => {
  const owner = await createTestUser();
  const progress: CreateToolProgress[] = [];
  const first = await createTool({
    workspaceId: owner.id,
    request: "I need a tool that converts a temperature from Celsius to Fahrenheit",
    config: config(),
    onProgress: (e) => progress.push(e),
  });
  if (first.status !== "ready") throw new Error(`expected ready, got ${JSON.stringify(first)}`);
  // The dialog streams these: each round's draft, then its test results (round 1 fails one test).
  expect(progress.map((e) => `${e.type}${e.round}`)).toEqual([
    "round1",
    "draft1",
    "tests1",
    "round2",
    "draft2",
    "tests2",
  ]);
  const tests1 = progress.find((e) => e.type === "tests" && e.round === 1);
  expect(tests1?.type === "tests" && tests1.results.some((r) => !r.passed)).toBe(true);
  // The accepted tests are recorded with the version for the owner's review.
  const stored = (await findTool(owner.id, { name: "celsius_to_fahrenheit" }))!.versions[0]!;
  expect(recordedTests(stored)).toEqual(
    first.results.map((r) => expect.objectContaining({ input: r.input, expected: r.expected, passed: true })),
  );
  expect(first.rounds).toBe(2);
  expect(first.results.every((r) => r.passed)).toBe(true);
  expect(first.version).toMatchObject({ version: 1, approvedAt: null });

  const calls = server.requests().filter((r) => r.rule === "write-tool-celsius");
  expect(calls).toHaveLength(2);
  const feedback = JSON.stringify(calls[1]!.body);
  expect(feedback).toContain('expected: {\\"fahrenheit\\":212}');
  expect(feedback).toContain('actual:   {\\"fahrenheit\\":180}');

  // Not runnable until the owner approves this exact hash.
  expect(await executeTool(owner.id, { name: "celsius_to_fahrenheit" }, { celsius: 10 })).toMatchObject({ ok: false });
  await approveToolVersion(owner.id, first.version.id, first.version.codeHash!);
  expect(await executeTool(owner.id, { name: "celsius_to_fahrenheit" }, { celsius: 10 })).toEqual({
    ok: true,
    output: { fahrenheit: 50 },
  });

  // Revoking the approval stops it at once; approving the same hash again restores it.
  expect(await revokeToolVersion(owner.id, first.version.id)).toBe(true);
  expect(await executeTool(owner.id, { name: "celsius_to_fahrenheit" }, { celsius: 10 })).toMatchObject({
    ok: false,
    error: expect.stringMatching(/not approved|approved version/),
  });
  await approveToolVersion(owner.id, first.version.id, first.version.codeHash!);

  const second = await createTool({
    workspaceId: owner.id,
    request: "convert temperatures in Celsius to Fahrenheit",
    config: config(),
  });
  expect(second).toMatchObject({ status: "reused", name: "celsius_to_fahrenheit" });
  expect(server.requests().filter((r) => r.rule === "write-tool-celsius")).toHaveLength(2); // no new generation
}, 240_000);

test("lexical similarity separates related and unrelated requests", () => {
  const tool = "celsius to fahrenheit Converts a temperature from Celsius to Fahrenheit";
  expect(similarity("convert temperatures in Celsius to Fahrenheit", tool)).toBeGreaterThanOrEqual(0.5);
  expect(similarity("summarise a PDF invoice", tool)).toBeLessThan(0.2);
});
