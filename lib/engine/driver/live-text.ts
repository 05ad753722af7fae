import type { LiveStepKey, LiveTextPort, LiveTextSink } from "../ports";

/** One model call's streaming handlers (ChatRequest.onDelta / onToolStart), from StepEnv.live.call(). */
export interface LiveCall {
  onDelta(text: string, attempt: number): void;
  onToolStart(name: string): void;
  /** The call answered: a provider that did not stream shows its whole text now (one frame at the end). */
  done(content: string): void;
}

/** A step's live text: what its model calls write, as it arrives (ephemeral, see ports/live-text.ts). */
export interface StepLive {
  /** Handlers for the next model call; its text follows the earlier calls' after a blank line. */
  call(): LiveCall;
}

/** A step's live text that streams nowhere (no port, an instant step). */
export const NO_LIVE_TEXT: StepLive = {
  call: () => ({ onDelta: () => undefined, onToolStart: () => undefined, done: () => undefined }),
};

/**
 * The live text of one running step over `port`: the sink is opened on the first delta (most steps
 * never call a model) and closed with `close()` when the step settles. `live()` false (the step
 * settled: timed out, cancelled) drops whatever still arrives. A call retried mid-stream (a new
 * attempt number) is cut back to where the call began, so viewers never see an abandoned attempt.
 */
export function stepLiveText(
  port: LiveTextPort | undefined,
  key: LiveStepKey,
  live: () => boolean,
): StepLive & { close(): void } {
  if (!port) return { ...NO_LIVE_TEXT, close: () => undefined };
  let sink: LiveTextSink | undefined;
  let length = 0;
  let closed = false;
  const open = (): LiveTextSink | undefined => {
    if (closed || !live()) return undefined;
    return (sink ??= port.open(key));
  };
  const append = (text: string) => {
    const s = text && open();
    if (!s) return;
    s.append(text);
    length += text.length;
  };
  return {
    call(): LiveCall {
      let start = -1;
      let attempt = -1;
      let streamed = false;
      const begin = () => {
        if (start >= 0) return;
        if (length > 0) append("\n\n");
        start = length;
      };
      return {
        onDelta(text, n) {
          if (!text) return;
          begin();
          if (attempt !== -1 && n !== attempt && length > start) {
            open()?.truncate(start);
            length = start;
          }
          attempt = n;
          streamed = true;
          append(text);
        },
        onToolStart(name) {
          if (name) open()?.tool(name);
        },
        done(content) {
          if (streamed || !content) return;
          begin();
          append(content);
        },
      };
    },
    close() {
      closed = true;
      sink?.close();
    },
  };
}
