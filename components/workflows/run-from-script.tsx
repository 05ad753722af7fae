"use client";
import Link from "next/link";
import { useSyncExternalStore } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { Field } from "@/lib/workflow/schema";
import { startRunCurl } from "./api-example";

const noSubscribe = () => () => undefined;

/** "Run from a script": the curl command that starts this workflow over the REST API, to copy. */
export function RunFromScript({ workflowId, inputs }: { workflowId: string; inputs: Field[] }) {
  // the page's own origin once in the browser; the server renders the public URL's placeholder
  const origin = useSyncExternalStore(
    noSubscribe,
    () => window.location.origin,
    () => "$WEFT",
  );
  const command = startRunCurl(origin, workflowId, inputs);
  const copy = () =>
    void navigator.clipboard?.writeText(command).then(
      () => toast.success("Copied."),
      () => toast.error("Could not copy: select the text instead."),
    );
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Run from a script</CardTitle>
        <CardDescription>
          Put an API token (
          <Link href="/settings#api-tokens-heading" className="underline">
            Settings → API tokens
          </Link>
          ) in <code className="font-mono text-xs">WEFT_TOKEN</code>, then start a run of the current draft. The answer
          holds the run&apos;s id: read it at <code className="font-mono text-xs">/api/runs/&lt;id&gt;</code> or follow{" "}
          <code className="font-mono text-xs">/api/runs/&lt;id&gt;/events</code>, or add{" "}
          <code className="font-mono text-xs">?wait=30</code> to the URL to get the answer once the run has ended,
          outputs included.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <pre
          data-testid="run-from-script"
          className="overflow-x-auto rounded-md bg-surface-2 px-3 py-2 font-mono text-xs"
        >
          {command}
        </pre>
        <div>
          <Button size="sm" variant="secondary" onClick={copy}>
            Copy command
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
