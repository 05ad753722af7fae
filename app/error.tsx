"use client";
import { Button } from "@/components/ui/button";

/** Unexpected errors: a calm message and a retry; the digest lets support find the server log line. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-[60dvh] flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-sm font-medium text-danger">Something went wrong</p>
      <h1 className="text-2xl font-semibold tracking-tight">We couldn&apos;t load this page</h1>
      <p className="max-w-sm text-sm text-muted">
        Try again in a moment. If it keeps happening, check that PostgreSQL and Redis are running (
        <code>/api/health</code>).
      </p>
      {error.digest && <p className="font-mono text-xs text-muted">Reference: {error.digest}</p>}
      <Button onClick={reset}>Try again</Button>
    </main>
  );
}
