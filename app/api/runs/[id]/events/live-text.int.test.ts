import { describe, expect, it } from "vitest";
import { POST as createLinkPOST } from "@/app/api/runs/[id]/share/route";
import { GET as shareEventsGET } from "@/app/api/share/[token]/events/route";
import { createApiToken } from "@/lib/db/api-tokens";
import { applyLiveFrame, liveFrameSchema, type LiveFrame, type LiveStepText } from "@/lib/events/live-frame";
import { SseParser, type SseFrame } from "@/lib/events/testing/sse";
import { markPeerStampActive, PEER_HEADER } from "@/lib/net/client-address";
import { apiRedis, runLiveKey } from "@/lib/queue";
import { startRun } from "@/lib/runs/service";
import { createTestWorkflow } from "@/test/fixtures";
import { useWorkerRuntime } from "@/test/helpers/runtime";
import { waitFor, waitTerminal } from "@/test/helpers/worker";
import type { WorkflowInput } from "@/lib/workflow/schema";
import { GET as eventsGET } from "./route";

/**
 * Live token streaming through a real worker, Redis, PostgreSQL and the scripted model over HTTP:
 * an agent writes 1,500 tokens (6 characters each, one every 4 ms); viewers join the run's stream
 * while it writes, through the owner's route and share links.
 */
const TOKENS = 1_500;
const token = (i: number) => `w${String(i).padStart(4, "0")} `;
const FULL = Array.from({ length: TOKENS }, (_, i) => token(i)).join("");

const rt = useWorkerRuntime({
  fixtures: [
    {
      rules: [
        {
          id: "long",
          match: { anyMessage: "Write the long text" },
          reply: { text: FULL, pace: { chunkMs: 4, chunkChars: 6 } },
        },
      ],
    },
  ],
});
markPeerStampActive();

const writer: WorkflowInput = {
  name: "Long writer",
  agents: [{ key: "w", name: "Writer", instructions: "Write.", model: { model: "scripted-demo" } }],
  nodes: [
    { id: "start", type: "start" },
    { id: "write", type: "agent", agent: "w", task: "Write the long text" },
    { id: "end", type: "end" },
  ],
  edges: [
    { id: "e1", source: "start", sourceHandle: "next", target: "write" },
    { id: "e2", source: "write", sourceHandle: "done", target: "end" },
  ],
};

interface Viewer {
  frames: SseFrame[];
  ended: Promise<void>;
  stop: () => Promise<void>;
}

/** Reads a stream response's frames until `event: end` (or stop()). */
function read(res: Response, abort: AbortController): Viewer {
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  const frames: SseFrame[] = [];
  const ended = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      for (const f of parser.push(chunk.value)) {
        frames.push(f);
        if (f.event === "end") return void (await reader.cancel().catch(() => undefined));
      }
    }
  })();
  return { frames, ended, stop: async () => (abort.abort(), await ended) };
}

let auth: Record<string, string> | undefined;
const ownerAuth = async () =>
  (auth ??= { authorization: `Bearer ${(await createApiToken(rt.workspaceId, rt.workspaceId, "live text")).token}` });

async function ownerView(runId: string, lastEventId?: string): Promise<Viewer> {
  const abort = new AbortController();
  const headers = { ...(await ownerAuth()), ...(lastEventId ? { "last-event-id": lastEventId } : {}) };
  const res = await eventsGET(
    new Request(`http://localhost/api/runs/${runId}/events`, { headers, signal: abort.signal }),
    { params: Promise.resolve({ id: runId }) },
  );
  return read(res, abort);
}

let peer = 0;
async function shareView(runId: string, includeContent: boolean): Promise<Viewer> {
  const res = await createLinkPOST(
    new Request(`http://localhost/api/runs/${runId}/share`, {
      method: "POST",
      headers: { ...(await ownerAuth()), "content-type": "application/json" },
      body: JSON.stringify({ expiresIn: "1h", includeContent }),
    }),
    { params: Promise.resolve({ id: runId }) },
  );
  expect(res.status).toBe(201);
  const { token: shareToken } = (await res.json()) as { token: string };
  const abort = new AbortController();
  const stream = await shareEventsGET(
    new Request(`http://localhost/api/share/${shareToken}/events`, {
      headers: { [PEER_HEADER]: `10.78.0.${++peer}` },
      signal: abort.signal,
    }),
    { params: Promise.resolve({ token: shareToken }) },
  );
  return read(stream, abort);
}

const liveOf = (v: Viewer): LiveFrame[] =>
  v.frames.filter((f) => f.event === "live").map((f) => liveFrameSchema.parse(JSON.parse(f.data)) as LiveFrame);
const seqsOf = (v: Viewer): number[] =>
  v.frames.filter((f) => f.event === undefined && f.id !== undefined).map((f) => Number(f.id));

/** Folds a viewer's live frames of the write step and checks that each character arrived once: a snapshot, then contiguous frames. */
function foldExactlyOnce(frames: LiveFrame[]): { text: string; snapshot: number; received: number } {
  const texts = new Map<string, LiveStepText>();
  let length = -1;
  let snapshot = -1;
  let received = 0;
  for (const f of frames.filter((x) => x.nodeId === "write")) {
    if (f.reset) {
      expect(f.at).toBe(0); // no model retry here: the only reset is the text so far
      if (snapshot < 0) snapshot = f.text.length;
      else expect(f.text.length).toBeGreaterThanOrEqual(length);
    } else {
      expect(f.at).toBe(length); // continues exactly where the copy ends: no gap, no repeat
    }
    received += f.reset ? f.text.length - Math.max(0, Math.min(length, f.text.length)) : f.text.length;
    expect(applyLiveFrame(texts, f)).toBe(true);
    length = texts.get("write#1#1")!.text.length;
  }
  return { text: texts.get("write#1#1")?.text ?? "", snapshot, received };
}

describe("live text of a running step (ephemeral token frames)", () => {
  it("a viewer joining after 500 of 1,500 tokens sees the text so far, then the rest, every character once; a share link without content gets no token frame", async () => {
    const { workflowId } = await createTestWorkflow(rt.workspaceId, writer);
    const { run } = await startRun(rt.workspaceId, workflowId);
    const key = runLiveKey(run.id);
    // the writer has streamed 500 tokens (the text so far in Redis), and is still writing
    await waitFor(
      async () => ((await apiRedis().hget(key, "write#1#1")) ?? "").length >= 500 * 6,
      60_000,
      "500 tokens written",
    );
    const [owner, hidden, shared] = await Promise.all([
      ownerView(run.id),
      shareView(run.id, false),
      shareView(run.id, true),
    ]);

    // a viewer that drops mid-step and comes back with its last id (a token frame's): no durable event twice, the text resumes
    await waitFor(async () => liveOf(owner).length > 20 || undefined, 30_000, "frames to the owner");
    const dropped = await ownerView(run.id);
    await waitFor(async () => liveOf(dropped).length > 5 || undefined, 30_000, "frames before the drop");
    await dropped.stop();
    const lastId = dropped.frames.at(-1)!.id!;
    const resumed = await ownerView(run.id, lastId);

    await Promise.all([owner.ended, hidden.ended, shared.ended, resumed.ended]);
    const done = await waitTerminal(run.id);
    expect(done.run.status).toBe("succeeded");

    const seen = foldExactlyOnce(liveOf(owner));
    expect(seen.snapshot).toBeGreaterThanOrEqual(500 * 6);
    expect(seen.snapshot).toBeLessThan(FULL.length);
    expect(seen.text).toBe(FULL);
    expect(seen.received).toBe(FULL.length);
    // the durable result carries the same text (and replaces the live one)
    const finished = owner.frames.filter(
      (f) => f.event === undefined && f.data.includes('"step_finished"') && f.data.includes('"write"'),
    );
    expect(finished).toHaveLength(1);
    expect(finished[0]!.data).toContain(JSON.stringify(FULL).slice(1, -1));
    // token frames have ids of their own, which resume like the seq before them
    expect(owner.frames.filter((f) => f.event === "live").every((f) => /^\d+-t\d+$/.test(f.id ?? ""))).toBe(true);

    // the content-less link: status events yes, token frames none, and no text of the answer anywhere
    expect(seqsOf(hidden).length).toBeGreaterThan(3);
    expect(hidden.frames.filter((f) => f.event === "live")).toHaveLength(0);
    expect(hidden.frames.map((f) => f.data).join("\n")).not.toContain(token(777));
    // the link with content streams the text like the owner's view
    expect(foldExactlyOnce(liveOf(shared)).text).toBe(FULL);

    // the resumed viewer: durable seqs continue after the drop without a repeat, and its text ends complete
    const before = seqsOf(dropped);
    const after = seqsOf(resumed);
    expect(after[0]).toBe(Number(/^(\d+)/.exec(lastId)![1]) + 1);
    expect(new Set([...before, ...after]).size).toBe(before.length + after.length);
    expect(foldExactlyOnce(liveOf(resumed)).text).toBe(FULL);

    // the ephemeral text is gone from Redis soon after the step (its durable result stays)
    await waitFor(async () => !(await apiRedis().hexists(key, "write#1#1")) || undefined, 20_000, "live text dropped");
  }, 180_000);
});
