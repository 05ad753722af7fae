import "server-only";
export { appendEvents, readEvents, runProgress, envelopeOf, READ_EVENTS_MAX, type Tx } from "./event-log";
export { publishRunWake, redisEventsPort } from "./publish";
export { RunEventHub, runEventHub, closeRunEventHub, type WakeListener } from "./hub";
export { runEventStream, resumeSeq, sseStats, SSE_HEADERS, DEFAULT_HEARTBEAT_MS, type RunStreamOptions } from "./sse";
