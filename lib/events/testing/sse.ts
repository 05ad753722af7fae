import "server-only";

/** Test helper: an incremental SSE parser (frames with id/event/data; comments counted). */
export interface SseFrame {
  id?: string;
  event?: string;
  data: string;
}

export class SseParser {
  private buffer = "";
  comments = 0;

  /** Feeds decoded text; returns the complete frames it finished. */
  push(text: string): SseFrame[] {
    this.buffer += text;
    const frames: SseFrame[] = [];
    let cut: number;
    while ((cut = this.buffer.indexOf("\n\n")) >= 0) {
      const block = this.buffer.slice(0, cut);
      this.buffer = this.buffer.slice(cut + 2);
      const frame: SseFrame = { data: "" };
      let hasField = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) {
          this.comments++;
          continue;
        }
        const i = line.indexOf(":");
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
        if (field === "id") frame.id = value;
        else if (field === "event") frame.event = value;
        else if (field === "data") frame.data = frame.data ? `${frame.data}\n${value}` : value;
        else continue;
        hasField = true;
      }
      if (hasField && (frame.data !== "" || frame.event)) frames.push(frame);
    }
    return frames;
  }
}
