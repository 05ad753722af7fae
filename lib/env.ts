import * as z from "zod";
import { parseTrustedProxies } from "./trusted-proxies";
import { DEFAULT_RUN_LIMIT_CEILINGS, type RunLimitCeilings } from "./workflow/limits";

/** How to fix each variable, shown when it is missing or malformed. */
const HOW: Record<string, string> = {
  DATABASE_URL: "set DATABASE_URL=postgresql://USER@HOST:5432/DB (default postgresql://postgres@127.0.0.1:5432/weft)",
  REDIS_URL: "set REDIS_URL=redis://HOST:6379 (default redis://127.0.0.1:6379)",
  AUTH_SECRET:
    "run `npm run up` once (it writes .env), or set AUTH_SECRET to 32+ random characters (openssl rand -base64 32)",
  WEFT_ENCRYPTION_KEY:
    "run `npm run up` once (it writes .env), or set WEFT_ENCRYPTION_KEY to 32 random bytes in base64 (openssl rand -base64 32)",
  WEFT_ENCRYPTION_OLD_KEYS: "comma-separated id:base64key pairs of retired keys, e.g. k0:AbC...=",
  OPENAI_BASE_URL: "set OPENAI_BASE_URL to an OpenAI-compatible endpoint ending in /v1, e.g. http://127.0.0.1:11434/v1",
  AUTH_URL: "set AUTH_URL to the public URL of the app, e.g. http://localhost:3000",
  WEFT_WORKER_CONCURRENCY:
    "set WEFT_WORKER_CONCURRENCY to the number of runs one worker drives at once, 1-500 (default 20)",
  WEFT_WORKER_HEALTH_PORT:
    "set WEFT_WORKER_HEALTH_PORT to a free TCP port for the worker's GET /health, or 0 for any (default 3001)",
  WEFT_WORKER_SHUTDOWN_GRACE_MS:
    "set WEFT_WORKER_SHUTDOWN_GRACE_MS to how long SIGTERM waits for in-flight steps, in ms (default 20000)",
  WEFT_RECONCILE_INTERVAL_MS:
    "set WEFT_RECONCILE_INTERVAL_MS to how often the reconciler re-dispatches orphaned runs, in ms (default 30000)",
  WEFT_METRICS_TOKEN:
    "set WEFT_METRICS_TOKEN to 16+ random characters that a Prometheus scrape of /api/metrics sends as a bearer token (unset = the route answers 404)",
  WEFT_SSE_HEARTBEAT_MS: "set WEFT_SSE_HEARTBEAT_MS to the SSE heartbeat period in ms, 100-60000 (default 15000)",
  WEFT_STEP_LOG_MS:
    "set WEFT_STEP_LOG_MS to how long a running run's commits may stay in its step log before its rows are written, 0-60000 ms (default 1000; 0 = never)",
  WEFT_DB_POOL_MAX:
    "set WEFT_DB_POOL_MAX to the connections per PostgreSQL pool, 1-100 (default 10; a process has two pools)",
  WEFT_SEARCH_URL:
    "set WEFT_SEARCH_URL to a SearXNG-compatible base URL, e.g. http://127.0.0.1:8888 (unset = web_search is not configured)",
  WEFT_MCP_ALLOW_STDIO:
    "set WEFT_MCP_ALLOW_STDIO=1 to let users connect stdio MCP servers (runs commands on this host), or 0 (default)",
  WEFT_JSON_MAX_BYTES:
    "set WEFT_JSON_MAX_BYTES to the largest JSON body or server action payload accepted, in bytes, 1024-67108864 (default 1048576)",
  WEFT_JSON_MAX_DEPTH: "set WEFT_JSON_MAX_DEPTH to the deepest JSON nesting accepted, 4-1000 (default 64)",
  WEFT_TRUSTED_PROXIES:
    "set WEFT_TRUSTED_PROXIES to the number of proxies in front of the app (1-10), or to their addresses and CIDR ranges separated by commas, e.g. 10.0.0.0/8,::1 (unset = the socket's address is the client)",
  WEFT_PROVIDER_ALLOW_PRIVATE:
    "set WEFT_PROVIDER_ALLOW_PRIVATE=1 to let users' model providers reach private and loopback addresses (Ollama, LM Studio on this host or network), or 0 (default; `npm run up` sets 1)",
  WEFT_MAX_RUN_STEPS:
    "set WEFT_MAX_RUN_STEPS to the most steps a workflow may allow a run (limits.maxSteps), 1-1000000 (default 1000)",
  WEFT_MAX_LOOP_ITERATIONS:
    "set WEFT_MAX_LOOP_ITERATIONS to the most iterations a workflow may allow a loop, 1-100000 (default 100)",
  WEFT_MAX_RUN_TIMEOUT_MS:
    "set WEFT_MAX_RUN_TIMEOUT_MS to the longest run (and step) timeout a workflow may set, in ms, 1000-2592000000 (default 21600000, 6 h)",
  WEFT_MAX_TURNS_PER_VISIT:
    "set WEFT_MAX_TURNS_PER_VISIT to the most model calls a workflow may allow one agent visit, 1-10000 (default 50)",
  WEFT_SIGN_UP_LIMIT:
    "set WEFT_SIGN_UP_LIMIT to the sign-ups one client address may make per hour, 1-100000 (default 20)",
  WEFT_SANDBOX_PER_USER:
    "set WEFT_SANDBOX_PER_USER to how many sandboxed code runs one user may have at once, 1-100 (default 4)",
  WEFT_MCP_RATE_LIMIT:
    "set WEFT_MCP_RATE_LIMIT to the requests one user may send to /api/mcp per minute, 1-100000 (default 120)",
  WEFT_SANDBOX_CHILD:
    "set WEFT_SANDBOX_CHILD to the absolute path of lib/tools/sandbox/child.mjs when the app does not run from the repo root",
};

const key32 = z.string().refine((s) => Buffer.from(s, "base64").length === 32, "must be 32 bytes encoded in base64");
const url = (protocols: string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.join(" or ")}//`,
  );

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: url(["postgresql:", "postgres:"]).default("postgresql://postgres@127.0.0.1:5432/weft"),
  REDIS_URL: url(["redis:", "rediss:"]).default("redis://127.0.0.1:6379"),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
  AUTH_URL: url(["http:", "https:"]).optional(),
  AUTH_GITHUB_ID: z.string().min(1).optional(),
  AUTH_GITHUB_SECRET: z.string().min(1).optional(),
  WEFT_ENCRYPTION_KEY: key32,
  WEFT_ENCRYPTION_KEY_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,16}$/, "must be 1-16 letters, digits, - or _")
    .default("k1"),
  WEFT_ENCRYPTION_OLD_KEYS: z
    .string()
    .regex(
      /^([A-Za-z0-9_-]{1,16}:[A-Za-z0-9+/=]+)(,[A-Za-z0-9_-]{1,16}:[A-Za-z0-9+/=]+)*$/,
      "must be id:base64key pairs separated by commas",
    )
    .optional(),
  OPENAI_BASE_URL: url(["http:", "https:"]).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  /** Port of the scripted OpenAI-compatible server used when no provider is configured. */
  WEFT_SCRIPTED_MODEL_PORT: z.coerce.number().int().min(1).max(65535).default(4010),
  /** Full URL of the scripted server when it is not on this host (docker-compose); default http://127.0.0.1:PORT/v1. */
  WEFT_SCRIPTED_MODEL_URL: url(["http:", "https:"]).optional(),
  /** BullMQ key prefix; tests use a fresh one per file. */
  WEFT_QUEUE_PREFIX: z.string().min(1).default("weft"),
  /** Runs one worker process drives concurrently (BullMQ concurrency). */
  WEFT_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(20),
  /** Port of the worker's health endpoint (GET /health); 0 = any free port. */
  WEFT_WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** Address the worker's health and metrics server listens on (0.0.0.0 for a Prometheus on another host). */
  WEFT_WORKER_HEALTH_HOST: z.string().min(1).default("127.0.0.1"),
  /** On SIGTERM, how long in-flight steps may finish before their runs are handed back. */
  WEFT_WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** Period of the reconciler that re-enqueues live runs without a job (D6). */
  WEFT_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
  /** SSE heartbeat (and safety re-read) period of run event streams. */
  WEFT_SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  /** W6: runs one user may start per minute. */
  WEFT_RUN_START_LIMIT: z.coerce.number().int().min(1).default(60),
  /** How long a held running run's commits may stay in its step log before its rows are written (0: never logged). */
  WEFT_STEP_LOG_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** Connections per PostgreSQL pool (a process has two: Prisma and the run store's hot path). */
  WEFT_DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** Bearer token that GET /api/metrics (the web process's Prometheus metrics) requires; unset = the route answers 404. */
  WEFT_METRICS_TOKEN: z.string().min(16).optional(),
  /** SearXNG-compatible base URL for the web_search tool; unset = "not configured". */
  WEFT_SEARCH_URL: url(["http:", "https:"]).optional(),
  /** Run notifications may go to private and loopback addresses (a self-hosted install notifying its own services). */
  WEFT_NOTIFY_ALLOW_PRIVATE: z.stringbool().default(false),
  WEFT_MCP_ALLOW_PRIVATE: z.stringbool().default(false),
  /** Tries per run notification before it is marked failed (5xx, 408, 429, timeouts and refused connections are tried again). */
  WEFT_NOTIFY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** Wait before the second try of a notification; doubled each time (10 s: the sixth try comes about 5 min after the first). */
  WEFT_NOTIFY_BACKOFF_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  /** Allow stdio MCP servers (they run a command on the Weft host): self-hosted, trusted users only. */
  WEFT_MCP_ALLOW_STDIO: z.stringbool().default(false),
  /** Users' model providers may reach private and loopback addresses (local model servers); `npm run up` sets it, Docker does not. */
  WEFT_PROVIDER_ALLOW_PRIVATE: z.stringbool().default(false),
  /** Ceilings on the limits a workflow may set (lib/workflow/limits.ts), checked when it is saved and when a run starts. */
  WEFT_MAX_RUN_STEPS: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_RUN_LIMIT_CEILINGS.maxSteps),
  WEFT_MAX_LOOP_ITERATIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(DEFAULT_RUN_LIMIT_CEILINGS.maxIterations),
  WEFT_MAX_RUN_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(30 * 86_400_000)
    .default(DEFAULT_RUN_LIMIT_CEILINGS.runTimeoutMs),
  WEFT_MAX_TURNS_PER_VISIT: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_RUN_LIMIT_CEILINGS.maxTurnsPerVisit),
  /** Sign-ups one client address may make per hour. */
  WEFT_SIGN_UP_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Sandboxed code runs (each a child process of up to ~160 MB) one user may have at once, across processes. */
  WEFT_SANDBOX_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  /** Requests one user may send to /api/mcp per minute. */
  WEFT_MCP_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  /** Path of lib/tools/sandbox/child.mjs when the process does not run from the repo root. */
  WEFT_SANDBOX_CHILD: z.string().min(1).optional(),
  /** Knowledge base embeddings: an OpenAI-compatible /v1 endpoint; default OPENAI_BASE_URL/OPENAI_API_KEY, else the scripted server. */
  WEFT_EMBEDDING_BASE_URL: url(["http:", "https:"]).optional(),
  WEFT_EMBEDDING_API_KEY: z.string().min(1).optional(),
  /** Embedding model; default text-embedding-3-small with a real provider, scripted-embed with the scripted server. */
  WEFT_EMBEDDING_MODEL: z.string().min(1).optional(),
  /** Vector size requested from the embeddings endpoint (only models that support choosing it). */
  WEFT_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(8).max(4096).optional(),
  /** The JSON guard (lib/http/json-guard.ts): largest JSON body or server action payload, in bytes. */
  WEFT_JSON_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1_048_576)
    .default(1_048_576),
  /** The JSON guard: deepest nesting accepted. */
  WEFT_JSON_MAX_DEPTH: z.coerce.number().int().min(4).max(1000).default(64),
  /** Proxies whose X-Forwarded-For / X-Forwarded-Host are believed: a number of hops, or addresses and CIDRs (lib/http/client-address.ts). */
  WEFT_TRUSTED_PROXIES: z
    .string()
    .optional()
    .refine((v) => {
      try {
        parseTrustedProxies(v);
        return true;
      } catch {
        return false;
      }
    }, "must be a number of proxies (0-10) or IP addresses and CIDR ranges separated by commas"),
  /** Largest knowledge-base upload, in MB. */
  WEFT_KB_MAX_UPLOAD_MB: z.coerce.number().min(0.01).max(100).default(10),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

/** Thrown when process.env does not parse; the message names every bad variable and how to fix it. */
export class EnvError extends Error {
  constructor(
    readonly variables: string[],
    message: string,
  ) {
    super(message);
    this.name = "EnvError";
  }
}

/** Parses an environment record; pure so tests can feed it anything. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "?");
    const problem = issue.code === "invalid_type" && cleaned[name] === undefined ? "is missing" : issue.message;
    return { name, line: `  ${name} ${problem}. How: ${HOW[name] ?? `set ${name} in .env or the environment`}.` };
  });
  const names = [...new Set(lines.map((l) => l.name))];
  throw new EnvError(names, `Weft cannot start: invalid environment.\n${lines.map((l) => l.line).join("\n")}`);
}

let cached: Env | undefined;

/** The parsed environment of this process (memoised). Throws EnvError naming bad variables. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** The server's ceilings on every run limit a workflow may set (checked at save and at start). */
export function runLimitCeilings(e: Env = env()): RunLimitCeilings {
  return {
    maxSteps: e.WEFT_MAX_RUN_STEPS,
    maxIterations: e.WEFT_MAX_LOOP_ITERATIONS,
    runTimeoutMs: e.WEFT_MAX_RUN_TIMEOUT_MS,
    maxTurnsPerVisit: e.WEFT_MAX_TURNS_PER_VISIT,
  };
}

/** Base URL of the scripted OpenAI-compatible demo model server. */
export function scriptedModelUrl(e: Env = env()): string {
  return e.WEFT_SCRIPTED_MODEL_URL ?? `http://127.0.0.1:${e.WEFT_SCRIPTED_MODEL_PORT}/v1`;
}

/** Forget the memoised environment (tests change process.env between cases). */
export function resetEnvCache(): void {
  cached = undefined;
}
