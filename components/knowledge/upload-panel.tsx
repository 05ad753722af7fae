"use client";
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { PlusIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { formatBytes, precheck, uploadFile } from "./upload";

type Item = {
  key: string;
  file: File;
  state: "queued" | "uploading" | "done" | "error";
  message?: string;
};

/**
 * Upload files into a collection: pick or drop several; each is checked here (type, size), then sent
 * one at a time; every file keeps its own line with the result. A refused file stays listed with the
 * reason (and Retry), so nothing is silently lost; the others go on.
 */
export function UploadPanel({
  collectionId,
  accept,
  maxBytes,
}: {
  collectionId: string;
  accept: string[];
  maxBytes: number;
}) {
  const router = useRouter();
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = useRef(false);
  const queue = useRef<Item[]>([]);

  const update = (key: string, patch: Partial<Item>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const pump = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        update(next.key, { state: "uploading", message: undefined });
        const out = await uploadFile(collectionId, next.file);
        if (out.state === "done") {
          update(next.key, {
            state: "done",
            message: out.duplicate
              ? "Already in this collection: nothing new stored."
              : `${out.chunks} chunk${out.chunks === 1 ? "" : "s"} indexed.`,
          });
          router.refresh();
        } else update(next.key, { state: "error", message: out.message });
      }
    } finally {
      busy.current = false;
    }
  }, [collectionId, router]);

  const add = (files: FileList | File[]) => {
    const fresh: Item[] = [...files].map((file, n) => {
      const problem = precheck(file, accept, maxBytes);
      return {
        key: `${Date.now()}-${n}-${file.name}`,
        file,
        state: problem ? "error" : "queued",
        message: problem ?? undefined,
      };
    });
    setItems((all) => [...fresh, ...all]);
    queue.current.push(...fresh.filter((i) => i.state === "queued"));
    void pump();
  };

  const retry = (item: Item) => {
    const problem = precheck(item.file, accept, maxBytes);
    if (problem) return update(item.key, { message: problem });
    update(item.key, { state: "queued", message: undefined });
    queue.current.push(item);
    void pump();
  };

  return (
    <Card className="p-5">
      <div
        className={cn(
          "flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-border px-4 py-8 text-center transition-colors",
          dragging && "border-primary bg-surface-2",
        )}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (e.dataTransfer.files.length) add(e.dataTransfer.files);
        }}
        data-testid="kb-dropzone"
      >
        <p className="text-sm font-medium">Drop files here</p>
        <p className="text-xs text-muted">
          {accept.join(" ")} · up to {formatBytes(maxBytes)} each
        </p>
        <Button variant="outline" size="sm" onClick={() => input.current?.click()}>
          <PlusIcon /> Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={accept.join(",")}
          className="sr-only"
          aria-label="Files to upload"
          data-testid="kb-file-input"
          onChange={(e) => {
            if (e.target.files?.length) add(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      {items.length > 0 && (
        <ul className="mt-4 divide-y divide-border text-sm" aria-label="Uploads" aria-live="polite">
          {items.map((item) => (
            <li
              key={item.key}
              className="flex items-start gap-3 py-2"
              data-testid="kb-upload-item"
              data-state={item.state}
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{item.file.name}</p>
                <p className={cn("text-xs", item.state === "error" ? "text-danger" : "text-muted")}>
                  {formatBytes(item.file.size)}
                  {item.message ? ` · ${item.message}` : ""}
                </p>
              </div>
              {item.state === "uploading" && <Spinner />}
              {item.state === "queued" && <Badge>Queued</Badge>}
              {item.state === "done" && <Badge tone="success">Added</Badge>}
              {item.state === "error" && (
                <>
                  <Badge tone="danger">Not added</Badge>
                  <Button variant="ghost" size="sm" onClick={() => retry(item)}>
                    Retry
                  </Button>
                </>
              )}
              {(item.state === "done" || item.state === "error") && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Dismiss ${item.file.name}`}
                  onClick={() => setItems((all) => all.filter((i) => i.key !== item.key))}
                >
                  ×
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
