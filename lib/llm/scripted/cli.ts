import "server-only";
import { parseArgs } from "node:util";
import { envSchema } from "@/lib/env";
import { createLogger } from "@/lib/logger";
import { DEFAULT_FIXTURE_DIR, FixtureError, loadFixtureDir } from "./fixture";
import { startScriptedServer } from "./server";

/**
 * `npm run model-server`: the scripted OpenAI-compatible server for the offline demo and e2e.
 * Port: --port, else WEFT_SCRIPTED_MODEL_PORT (default 4010). Fixtures: every *.json in
 * lib/llm/scripted/fixtures/ (dropping a file there is enough), or the directories given with
 * --fixtures (repeatable). Host: --host (default 127.0.0.1). Stops gracefully on SIGTERM/SIGINT.
 * Only WEFT_SCRIPTED_MODEL_PORT is read from the environment, so it runs without a .env.
 */
const log = createLogger({ component: "model-server" });

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, host: { type: "string" }, fixtures: { type: "string", multiple: true } },
  });
  const port = envSchema.shape.WEFT_SCRIPTED_MODEL_PORT.parse(values.port ?? process.env.WEFT_SCRIPTED_MODEL_PORT);
  const dirs = values.fixtures?.length ? values.fixtures : [DEFAULT_FIXTURE_DIR];
  const fixtures = dirs.flatMap((d) => loadFixtureDir(d));
  const server = await startScriptedServer({ port, host: values.host, fixtures });
  log.info("scripted model server listening", {
    url: server.url,
    files: fixtures.map((f) => f.source),
    rules: server.rules().length,
    models: "GET /v1/models",
  });
  const stop = (signal: string) => {
    log.info("stopping scripted model server", { signal });
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main().catch((e: unknown) => {
  if (e instanceof FixtureError) log.error(e.message);
  else log.error("scripted model server failed to start", { err: e as Error });
  process.exit(1);
});
