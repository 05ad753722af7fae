import "server-only";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as z from "zod";
import { createLogger } from "@/lib/logger";
import { DEFAULT_EMBEDDING_DIM, embed, toBase64 } from "./embeddings";
import {
  FixtureError,
  loadFixtureDir,
  parseFixture,
  type FixtureFileInput,
  type FixtureSet,
  type Rule,
} from "./fixture";
import { chatRequestSchema, estimateTokens, promptTokens, requestFacts } from "./request";
import { errorBody, newId, planFor } from "./respond";
import { FALLBACK_RULE_ID, RuleBook } from "./rules";
import { sendCompletion, sendJson, sendStream } from "./send";
import {
  PERSONALITIES,
  personalityOf,
  refusal,
  renderFacts,
  styled,
  type Personality,
  type PersonalityName,
} from "./personality";

const log = createLogger({ component: "scripted-model" });

/** Fixtures to load: validated sets, raw fixture objects (validated as "inline[i]"), or a directory path. */
export type FixtureInput = string | (FixtureSet | FixtureFileInput)[];

export interface ScriptedServerOptions {
  /** TCP port; default 0 (a free port — always use 0 in tests). */
  port?: number;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Initial fixtures; default none (every request gets the fallback answer). */
  fixtures?: FixtureInput;
  /** Embedding dimension when the request sets no `dimensions`; default 256. */
  embeddingDim?: number;
  /** Requests kept in the log (oldest dropped first); default 5000. */
  maxLog?: number;
  /** How the server behaves as a provider when the URL names no personality (`/p/<name>/v1/…`); default "plain". */
  personality?: PersonalityName;
  /** Called as each text piece of a streamed answer is written (B2b stamps the provider's chunk with it). */
  onChunk?: (text: string) => void;
}

/** One logged request (GET /_scripted/requests returns these, oldest first). */
export interface LoggedRequest {
  seq: number;
  at: string;
  path: string;
  model: string | null;
  /** Matched rule id, "fallback" when none matched, null for non-chat endpoints or bad requests. */
  rule: string | null;
  matched: boolean;
  /** Set when no rule matched and `rule` answered as the nearest example (its similarity, 0–1). */
  nearest?: number;
  /** 1-based call number of that rule. */
  call: number;
  outcome: string;
  status: number;
  stream: boolean;
  lastUser: string;
  tools: string[];
  schema: string | null;
  /** The provider personality that answered (personality.ts). */
  personality: string;
  body: unknown;
}

/** A running scripted OpenAI-compatible server. */
export interface ScriptedServer {
  /** Base URL for OpenAI clients, ending in /v1, e.g. http://127.0.0.1:41234/v1. */
  url: string;
  port: number;
  /** Stops listening and drops open connections (including stalled streams). */
  close(): Promise<void>;
  /** Replaces all rules (default) or upserts them by id ("add"). Throws FixtureError on bad input. */
  load(fixtures: FixtureInput, mode?: "replace" | "add"): void;
  /** Back to the initial fixtures; clears sequence positions, fault counters and the request log. */
  reset(): void;
  /** The request log, oldest first (the last `maxLog` requests). */
  requests(): LoggedRequest[];
  /** Rules in match order. */
  rules(): Rule[];
}

/** Validates fixture input into sets (directory → every *.json in it). */
export function toFixtureSets(input: FixtureInput): FixtureSet[] {
  if (typeof input === "string") return loadFixtureDir(input);
  return input.map((x, i) =>
    x && typeof x === "object" && "source" in x && "fixture" in x ? (x as FixtureSet) : parseFixture(`inline[${i}]`, x),
  );
}

async function readBody(req: IncomingMessage, limit = 20 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new Error("request body too large");
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const embeddingRequest = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
    dimensions: z.number().int().min(1).max(8192).optional(),
    encoding_format: z.enum(["float", "base64"]).optional(),
  })
  .loose();

const controlFixtures = z.object({ mode: z.enum(["replace", "add"]).default("add") }).loose();

class Handler {
  readonly book = new RuleBook();
  log: LoggedRequest[] = [];
  private seq = 0;

  constructor(
    private initial: FixtureSet[],
    private dim: number,
    private maxLog: number,
    private personality: PersonalityName = "plain",
    private readonly onChunk?: (text: string) => void,
  ) {
    this.book.load(initial);
  }

  reset(): void {
    this.book.load(this.initial, "replace");
    this.log = [];
  }

  record(entry: Omit<LoggedRequest, "seq" | "at" | "personality"> & { personality?: string }): void {
    this.seq += 1;
    this.log.push({ seq: this.seq, at: new Date().toISOString(), personality: this.personality, ...entry });
    if (this.log.length > this.maxLog) this.log.splice(0, this.log.length - this.maxLog);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const named = /^\/p\/([^/]+)(\/.*)$/.exec(url.pathname);
    const personality = named ? personalityOf(named[1]!) : PERSONALITIES[this.personality];
    if (!personality)
      return sendJson(
        res,
        404,
        errorBody(
          `Unknown personality "${named![1]}"; have: ${Object.keys(PERSONALITIES).join(", ")}.`,
          "invalid_request_error",
          "unknown_url",
        ),
      );
    const pathname = named ? named[2]! : url.pathname;
    const route = `${req.method} ${pathname.replace(/\/+$/, "")}`;
    switch (route) {
      case "POST /v1/chat/completions":
        return this.chat(req, res, url.pathname, personality, named?.[1] ?? this.personality);
      case "POST /v1/embeddings":
        return this.embeddings(req, res);
      case "GET /v1/models":
        return sendJson(res, 200, {
          object: "list",
          data: this.book.models().map((id) => ({ id, object: "model", created: 0, owned_by: "weft-scripted" })),
        });
      case "GET /health":
      case "GET /_scripted/health":
        return sendJson(res, 200, { ok: true });
      case "GET /_scripted/requests":
        return sendJson(res, 200, { requests: this.log });
      case "GET /_scripted/rules":
        return sendJson(res, 200, { rules: this.book.ordered() });
      case "POST /_scripted/reset":
        this.reset();
        return sendJson(res, 200, { ok: true });
      case "POST /_scripted/fixtures":
        return this.control(req, res);
      default:
        return sendJson(
          res,
          404,
          errorBody(`Unknown request URL: ${req.method} ${url.pathname}.`, "invalid_request_error", "unknown_url"),
        );
    }
  }

  private async json(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    try {
      return JSON.parse(await readBody(req));
    } catch (e) {
      sendJson(
        res,
        400,
        errorBody(`We could not parse the JSON body of your request: ${(e as Error).message}`, "invalid_request_error"),
      );
      return undefined;
    }
  }

  private async control(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await this.json(req, res);
    if (body === undefined) return;
    const parsed = controlFixtures.safeParse(body);
    if (!parsed.success)
      return sendJson(
        res,
        400,
        errorBody("Body must be a fixture object: {mode?, rules, models?}.", "invalid_fixture"),
      );
    const { mode, ...fixture } = parsed.data;
    try {
      this.book.load([parseFixture("POST /_scripted/fixtures", fixture)], mode);
    } catch (e) {
      if (e instanceof FixtureError) return sendJson(res, 400, errorBody(e.message, "invalid_fixture"));
      throw e;
    }
    sendJson(res, 200, { ok: true, rules: this.book.ordered().map((r) => r.id) });
  }

  private async chat(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    persona: Personality,
    personaName: string,
  ): Promise<void> {
    const raw = await this.json(req, res);
    if (raw === undefined) return;
    const parsed = chatRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = `Invalid request: ${issue?.path.join(".") || "body"}: ${issue?.message ?? "malformed"}`;
      this.record({
        path,
        model: null,
        rule: null,
        matched: false,
        call: 0,
        outcome: "bad_request",
        status: 400,
        stream: false,
        lastUser: "",
        tools: [],
        schema: null,
        body: raw,
      });
      return sendJson(res, 400, errorBody(message, "invalid_request_error"));
    }
    const facts = requestFacts(parsed.data);
    const refused = refusal(persona, parsed.data);
    if (refused) {
      this.record({
        path,
        model: facts.model,
        rule: null,
        matched: false,
        call: 0,
        outcome: "refused",
        status: 400,
        stream: facts.stream,
        lastUser: facts.lastUser,
        tools: facts.tools,
        schema: facts.schemaName ?? null,
        personality: personaName,
        body: raw,
      });
      return sendJson(res, 400, errorBody(refused, "invalid_request_error", "unsupported_parameter"));
    }
    const decision = this.book.decide(facts);
    const planned = planFor(decision, renderFacts(persona, facts));
    const plan = planned.kind === "message" ? { ...planned, message: styled(persona, planned.message) } : planned;
    const outcome = decision.kind === "fault" ? `fault:${decision.fault.kind}` : "reply";
    const status = plan.kind === "error" ? plan.status : 200;
    this.record({
      path,
      model: facts.model,
      rule: decision.ruleId,
      matched: decision.ruleId !== FALLBACK_RULE_ID && decision.nearest === undefined,
      call: decision.call,
      outcome,
      status,
      stream: facts.stream,
      lastUser: facts.lastUser,
      tools: facts.tools,
      schema: facts.schemaName ?? null,
      personality: personaName,
      body: raw,
      ...(decision.nearest !== undefined ? { nearest: decision.nearest } : {}),
    });
    if (decision.ruleId === FALLBACK_RULE_ID)
      log.info("no fixture matched", {
        model: facts.model,
        lastUser: facts.lastUser.slice(0, 120),
        tools: facts.tools,
      });
    if (plan.delayMs > 0) await sleep(plan.delayMs);
    const headers: Record<string, string> = { "x-scripted-rule": decision.ruleId, "x-request-id": newId("req_") };
    if (decision.nearest !== undefined) headers["x-scripted-nearest"] = String(decision.nearest);
    if (plan.kind === "error") return sendJson(res, plan.status, plan.body, { ...headers, ...plan.headers });
    const ctx = {
      model: facts.model,
      promptTokens: promptTokens(parsed.data),
      includeUsage: facts.includeUsage,
      headers,
      argsAsObject: persona.argsAsObject,
      ...(persona.chunkChars ? { chunkChars: persona.chunkChars } : {}),
      ...(this.onChunk ? { onChunk: this.onChunk } : {}),
    };
    if (facts.stream) return sendStream(res, plan, ctx);
    sendCompletion(res, plan, ctx);
  }

  private async embeddings(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await this.json(req, res);
    if (raw === undefined) return;
    const parsed = embeddingRequest.safeParse(raw);
    if (!parsed.success)
      return sendJson(
        res,
        400,
        errorBody(
          "Invalid embeddings request: input must be a string or an array of strings.",
          "invalid_request_error",
        ),
      );
    const { input, model, dimensions, encoding_format } = parsed.data;
    const texts = (Array.isArray(input) ? input : [input]).map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
    const vectors = texts.map((t) => embed(t, dimensions ?? this.dim));
    const tokens = texts.reduce((n, t) => n + estimateTokens(t), 0);
    this.record({
      path: "/v1/embeddings",
      model,
      rule: null,
      matched: true,
      call: 0,
      outcome: "embeddings",
      status: 200,
      stream: false,
      lastUser: "",
      tools: [],
      schema: null,
      body: raw,
    });
    sendJson(res, 200, {
      object: "list",
      data: vectors.map((v, index) => ({
        object: "embedding",
        index,
        embedding: encoding_format === "base64" ? toBase64(v) : v,
      })),
      model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}

/**
 * Starts the scripted OpenAI-compatible server (chat completions incl. streaming and tool calls,
 * embeddings, models, plus /_scripted/* control endpoints). Defaults: port 0, host 127.0.0.1.
 */
export async function startScriptedServer(opts: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const initial = opts.fixtures ? toFixtureSets(opts.fixtures) : [];
  const handler = new Handler(
    initial,
    opts.embeddingDim ?? DEFAULT_EMBEDDING_DIM,
    opts.maxLog ?? 5000,
    opts.personality,
    opts.onChunk,
  );
  const server = createServer((req, res) => {
    handler.handle(req, res).catch((e: unknown) => {
      log.error("scripted server error", { err: e as Error, url: req.url });
      if (!res.headersSent) sendJson(res, 500, errorBody("Scripted server internal error.", "server_error"));
      else res.destroy();
    });
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    load: (fixtures, mode = "replace") => handler.book.load(toFixtureSets(fixtures), mode),
    reset: () => handler.reset(),
    requests: () => [...handler.log],
    rules: () => handler.book.ordered(),
  };
}
