"use client";
import { useSyncExternalStore } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { Field } from "@/lib/workflow/schema";
import { webhookCurl, webhookUrl, type WebhookRow } from "./webhook-types";

const noSubscribe = () => () => undefined;

/** A webhook's secret URL, shown once (after "Add webhook" or "New URL"), with a copy button and a call to try. */
export function WebhookSecret({
  name,
  secret,
  fields,
  mode,
  onDone,
}: {
  name: string;
  secret: string;
  fields: Field[];
  mode: WebhookRow["inputMode"];
  onDone: () => void;
}) {
  const origin = useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => "$WEFT",
  );
  const url = webhookUrl(origin, secret);
  const copy = (text: string) =>
    void navigator.clipboard?.writeText(text).then(
      () => toast.success("Copied."),
      () => toast.error("Could not copy: select the text instead."),
    );
  return (
    <div className="grid gap-4">
      <p role="status" className="rounded-md border border-warning/30 bg-warning/15 px-3 py-2 text-sm">
        Copy the URL of <strong>{name}</strong> now: it is shown only this once. Anyone who has it can start runs, so
        keep it as secret as a password.
      </p>
      <div className="flex gap-2">
        <Input
          readOnly
          value={url}
          aria-label="Webhook URL"
          data-testid="new-webhook-url"
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button variant="secondary" onClick={() => copy(url)}>
          Copy
        </Button>
      </div>
      <div className="grid gap-1 text-sm">
        <span className="text-muted">Try it: the answer (202) holds the id of the run it started.</span>
        <pre data-testid="webhook-curl" className="overflow-x-auto rounded-md bg-surface-2 px-3 py-2 font-mono text-xs">
          {webhookCurl(url, fields, mode)}
        </pre>
      </div>
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
