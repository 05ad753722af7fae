"use client";
import type { RunEventEnvelope } from "@/lib/engine/events";

/** The run's event log as received (seq, time, type, JSON), newest last. */
export function RawEvents({ events }: { events: readonly RunEventEnvelope[] }) {
  if (events.length === 0) return <p className="text-sm text-muted">No events yet.</p>;
  return (
    <ol
      className="max-h-96 overflow-auto rounded-md border border-border bg-surface-2 font-mono text-xs"
      data-testid="raw-events"
    >
      {events.map((e) => (
        <li
          key={e.seq}
          className="grid grid-cols-[3rem_6rem_8rem_1fr] gap-2 border-b border-border px-2 py-1 last:border-0"
          data-seq={e.seq}
          data-type={e.event.type}
        >
          <span className="text-muted">{e.seq}</span>
          <span className="text-muted">{new Date(e.at).toLocaleTimeString()}</span>
          <span className="font-semibold">{e.event.type}</span>
          <span className="truncate" title={JSON.stringify(e.event)}>
            {JSON.stringify(e.event)}
          </span>
        </li>
      ))}
    </ol>
  );
}
