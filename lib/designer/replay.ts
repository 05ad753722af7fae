import { z } from "zod";
import type { DesignerModel, StructuredRequest, StructuredResult } from "./model";
import { parseAnswer } from "./model";

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

/** Everything a structured request sends, as text (for token counting). */
export function requestText(request: StructuredRequest<unknown>): string {
  const schema = JSON.stringify(z.toJSONSchema(request.schema, { unrepresentable: "any" }));
  return [request.system, ...request.messages.map((m) => m.content), schema].join("\n");
}

/** A DesignerModel answering from `replies`; `count` turns text into tokens (default approx). */
export function replayModel(replies: readonly ScriptedReply[], count: (text: string) => number = approxTokens): DesignerModel & { calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      request.signal?.throwIfAborted();
      const reply = replies[Math.min(calls, replies.length - 1)];
      calls += 1;
      if (!reply) throw new Error("the transcript has no replies");
      const raw = replyText(reply);
      const usage = { promptTokens: count(requestText(request as StructuredRequest<unknown>)), completionTokens: count(raw) };
      const parsed = parseAnswer(raw, request.schema);
      return parsed.ok ? { ok: true, value: parsed.value, raw, usage } : { ok: false, error: parsed.error, raw, usage };
    },
  };
}
