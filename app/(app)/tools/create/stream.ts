import "server-only";
import type { CreateStreamEvent } from "@/components/tools/types";
import { isScriptedModel, modelLabel, type ModelConfig } from "@/lib/llm/models";
import { createLogger } from "@/lib/logger";
import { createTool } from "@/lib/tools/create";

const log = createLogger({ component: "tools-create" });

/**
 * The creation loop as an NDJSON stream (one CreateStreamEvent per line): started (with the model
 * that writes, and whether it is the offline demo's scripted one), then per round
 * round/draft/tests, then one of reused | ready | failed | error. The loop finishes (and stores a
 * passing tool, unapproved) even when the reader goes away.
 */
export function toolCreationStream(p: {
  workspaceId: string;
  request: string;
  config: () => Promise<ModelConfig>;
  signal?: AbortSignal;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (e: CreateStreamEvent) => {
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(e)}\n`));
        } catch {
          // the reader went away
        }
      };
      try {
        const config = await p.config();
        // which model writes: the dialog tells the user when it is the offline demo's scripted model
        send({ type: "started", request: p.request, model: modelLabel(config), offline: isScriptedModel(config) });
        const outcome = await createTool({
          workspaceId: p.workspaceId,
          request: p.request,
          config,
          signal: p.signal,
          onProgress: send,
        });
        if (outcome.status === "reused")
          send({ type: "reused", toolId: outcome.toolId, name: outcome.name, score: outcome.score });
        else if (outcome.status === "ready") {
          send({
            type: "ready",
            name: outcome.draft.name,
            versionId: outcome.version.id,
            version: outcome.version.version,
            codeHash: outcome.version.codeHash ?? "",
            code: outcome.version.code ?? "",
            rounds: outcome.rounds,
            results: outcome.results,
            nearDuplicates: outcome.nearDuplicates,
          });
        } else send({ type: "failed", rounds: outcome.rounds, error: outcome.error, results: outcome.results });
      } catch (err) {
        log.warn("tool creation failed", { error: err instanceof Error ? err.message : String(err) });
        send({ type: "error", message: err instanceof Error ? err.message : "Tool creation failed" });
      } finally {
        try {
          controller.close();
        } catch {
          // already closed
        }
      }
    },
  });
}
