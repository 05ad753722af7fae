import * as z from "zod";
import type { DesignerModel, StructuredRequest, StructuredResult } from "./model";
import { jsonIn } from "./model";

/**
 * In-process replay of a recorded transcript: call k gets reply k (the last one repeats). The same
 * reply format as the scripted model server's fixtures ({json} or raw {text}), so one transcript
 * drives both this fake and the server over HTTP.
 */

export const scriptedReplySchema = z.union([
  z.object({ json: z.unknown() }).strict(),
  z.object({ text: z.string() }).strict(),
]);
export type ScriptedReply = z.infer<typeof scriptedReplySchema>;

/** Text a reply puts on the wire. */
export const replyText = (r: ScriptedReply): string => ("json" in r ? JSON.stringify(r.json) : r.text);

/** Rough token count (4 characters a token) when no tokenizer is given. */
export const approxTokens = (text: string): number => Math.ceil(text.length / 4);

/** Everything a structured request sends, as text (for token counting): system, messages, the (loose) schema. */
export function requestText(request: StructuredRequest): string {
  return [request.system, ...request.messages.map((m) => m.content), JSON.stringify(request.schema.loose)].join("\n");
}

/** A DesignerModel answering from `replies`; `count` turns text into tokens (default approx). */
export function replayModel(
  replies: readonly ScriptedReply[],
  count: (text: string) => number = approxTokens,
): DesignerModel & { calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    async structured(request: StructuredRequest): Promise<StructuredResult> {
      request.signal?.throwIfAborted();
      const reply = replies[Math.min(calls, replies.length - 1)];
      calls += 1;
      if (!reply) throw new Error("the transcript has no replies");
      const raw = replyText(reply);
      const usage = { promptTokens: count(requestText(request)), completionTokens: count(raw) };
      const found = jsonIn(raw);
      return found.ok ? { ok: true, data: found.data, raw, usage } : { ok: false, error: found.error, raw, usage };
    },
  };
}
