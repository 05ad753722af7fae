import { describe, expect, it } from "vitest";
import { POST as createLinkPOST } from "@/app/api/runs/[id]/share/route";
import { GET as shareEventsGET } from "@/app/api/share/[token]/events/route";
import { GET as shareGET } from "@/app/api/share/[token]/route";
import { createApiToken } from "@/lib/db/api-tokens";
import { markPeerStampActive, PEER_HEADER } from "@/lib/net/client-address";
import { SseParser } from "@/lib/events/testing/sse";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { useWorkerRuntime } from "@/test/helpers/runtime";

const rt = useWorkerRuntime();
markPeerStampActive();

/** The marker each run's data carries: in the tool's error and in the templated abort reason. */
const MARKER = "MARKERq7x3";
let peer = 0;

/** A tool node whose tool fails on the run's input (mathjs names the undefined symbol: the marker); its error outcome is not wired, so the step fails. */
const failingTool: WorkflowInput = {
  name: "Tool fails on its input",
  inputs: [{ key: "q", type: "text", description: "", required: true }],
  outputs: [{ key: "answer", type: "text", description: "" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "calc", type: "tool", tool: { name: "math" }, args: { expression: "{{inputs.q}} + 1" } },
    { id: "end", type: "end", outputs: { answer: "{{nodes.calc.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "calc" },
    { id: "e2", source: "calc", sourceHandle: "done", target: "end" },
  ],
};

/** A tool whose error outcome leads to an abort node whose reason is a template of the run's input. */
const templatedAbort: WorkflowInput = {
  name: "Aborts with the input in its reason",
  inputs: [{ key: "q", type: "text", description: "", required: true }],
  outputs: [{ key: "answer", type: "text", description: "" }],
  nodes: [
    { id: "start", type: "start" },
    { id: "calc", type: "tool", tool: { name: "math" }, args: { expression: "{{inputs.q}} + 1" } },
    { id: "stop", type: "abort", reason: "Refused: {{inputs.q}}" },
    { id: "end", type: "end", outputs: { answer: "{{nodes.calc.output}}" } },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "calc" },
    { id: "e2", source: "calc", sourceHandle: "done", target: "end" },
    { id: "e3", source: "calc", sourceHandle: "error", target: "stop" },
  ],
};

let auth: Record<string, string> | undefined;

async function shareOf(runId: string, includeContent: boolean): Promise<string> {
  auth ??= { authorization: `Bearer ${(await createApiToken(rt.workspaceId, rt.workspaceId, "share links")).token}` };
  const res = await createLinkPOST(
    new Request(`http://localhost/api/runs/${runId}/share`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ expiresIn: "1h", includeContent }),
    }),
    { params: Promise.resolve({ id: runId }) },
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Everything a share viewer receives: the API's JSON and the whole event stream (to its end). */
async function everythingShared(token: string): Promise<string> {
  const headers = { [PEER_HEADER]: `10.77.0.${++peer}` };
  const api = await shareGET(new Request(`http://localhost/api/share/${token}`, { headers }), {
    params: Promise.resolve({ token }),
  });
  expect(api.status).toBe(200);
  const stream = await shareEventsGET(new Request(`http://localhost/api/share/${token}/events`, { headers }), {
    params: Promise.resolve({ token }),
  });
  expect(stream.status).toBe(200);
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  const frames: string[] = [];
  for (let ended = false; !ended;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    for (const f of parser.push(chunk.value)) {
      frames.push(f.data);
      if (f.event === "end") ended = true;
    }
  }
  await reader.cancel().catch(() => undefined);
  expect(frames.length).toBeGreaterThan(1);
  return `${await api.text()}\n${frames.join("\n")}`;
}

describe("share links without content (finding 2)", () => {
  it("finding 2: a share link without content shows no error text, reason text, prompt or output, over the API and the stream", async () => {
    const { run: failed, steps } = await rt.run(failingTool, { q: MARKER });
    expect(failed.status).toBe("failed");
    expect(steps.find((s) => s.nodeId === "calc")?.error).toContain(MARKER);
    const { run: aborted } = await rt.run(templatedAbort, { q: MARKER });
    expect(aborted.reason).toContain(MARKER);

    for (const run of [failed, aborted]) {
      const hidden = await everythingShared(await shareOf(run.id, false));
      expect(hidden).not.toContain(MARKER);
      expect(hidden).toContain("details are not shared by this link");
      // the same run shared WITH content does carry the marker: the check above is not vacuous
      expect(await everythingShared(await shareOf(run.id, true))).toContain(MARKER);
    }
  }, 120_000);
});
