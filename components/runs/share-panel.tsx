"use client";
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/input";

interface LinkRow {
  id: string;
  includeContent: boolean;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  active: boolean;
}

/**
 * "Share": create a read-only link (expiry 1 h / 1 day / 7 days, prompts/outputs on or off), copy it
 * (shown once: only its hash is stored), and list or revoke the run's links.
 */
export function SharePanel({ runId }: { runId: string }) {
  const [open, setOpen] = useState(false);
  const [expiresIn, setExpiresIn] = useState("1d");
  const [includeContent, setIncludeContent] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [links, setLinks] = useState<LinkRow[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const res = await fetch(`/api/runs/${runId}/share`, { cache: "no-store" });
    if (res.ok) setLinks(((await res.json()) as { links: LinkRow[] }).links);
  }, [runId]);

  useEffect(() => {
    if (open) void load();
  }, [open, load]);

  const create = async () => {
    setBusy(true);
    try {
      const res = await fetch(`/api/runs/${runId}/share`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ expiresIn, includeContent }),
      });
      if (!res.ok) return void toast.error(`Could not create the link (${res.status}).`);
      setUrl(((await res.json()) as { url: string }).url);
      await load();
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string) => {
    const res = await fetch(`/api/runs/${runId}/share/${id}`, { method: "DELETE" });
    if (res.ok) toast.success("Link revoked; open viewers stop within seconds.");
    await load();
  };

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)} data-testid="share-open">
        Share
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Share this run"
        description="Anyone with the link sees this dashboard read-only, live, without an account."
      >
        <div className="grid gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <label className="grid gap-1 text-sm">
              <span className="text-xs font-medium">Expires after</span>
              <Select value={expiresIn} onChange={(e) => setExpiresIn(e.target.value)} data-testid="share-expiry">
                <option value="1h">1 hour</option>
                <option value="1d">1 day</option>
                <option value="7d">7 days</option>
              </Select>
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={includeContent}
                onChange={(e) => setIncludeContent(e.target.checked)}
                data-testid="share-content"
              />
              Include prompts and outputs
            </label>
            <Button onClick={() => void create()} loading={busy} data-testid="share-create">
              Create link
            </Button>
          </div>
          {url && (
            <div className="grid gap-1">
              <span className="text-xs text-muted">Copy it now: it is not shown again.</span>
              <div className="flex gap-2">
                <input
                  readOnly
                  value={url}
                  className="w-full rounded-md border border-border bg-surface-2 px-2 py-1 font-mono text-xs"
                  data-testid="share-url"
                  onFocus={(e) => e.target.select()}
                />
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => void navigator.clipboard?.writeText(url).then(() => toast.success("Copied."))}
                >
                  Copy
                </Button>
              </div>
            </div>
          )}
          <ul className="grid gap-2" data-testid="share-links">
            {links.map((l) => (
              <li
                key={l.id}
                className="flex items-center justify-between gap-2 rounded-md border border-border p-2 text-xs"
                data-active={l.active}
              >
                <span>
                  {l.active ? "Active" : l.revokedAt ? "Revoked" : "Expired"} ·{" "}
                  {l.includeContent ? "with content" : "no content"} · expires {new Date(l.expiresAt).toLocaleString()}
                </span>
                {l.active && (
                  <Button size="sm" variant="danger" onClick={() => void revoke(l.id)} data-testid="share-revoke">
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </div>
      </Dialog>
    </>
  );
}
