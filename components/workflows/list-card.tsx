"use client";
import { useTransition, type ReactNode } from "react";
import type { FormResult } from "@/components/settings/types";
import { toastOutcome } from "@/components/ui/action-result";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PlusIcon, TrashIcon } from "@/components/ui/icons";

/** A row action's pending state, and `act`: run a server action and toast its answer. */
export function useRowActions() {
  const [pending, startTransition] = useTransition();
  const act = (fn: () => Promise<FormResult>) =>
    startTransition(async () => {
      toastOutcome(await fn());
    });
  return { pending, act, startTransition };
}

/**
 * A card of the workflow page listing what drives its runs (schedules, webhooks, notification URLs):
 * title, description and an "Add" button; an optional note; the rows, or `empty` when there are none.
 */
export function ListCard({
  title,
  description,
  addLabel,
  onAdd,
  note,
  empty,
  children,
}: {
  title: string;
  description: string;
  addLabel: string;
  onAdd: () => void;
  note?: ReactNode;
  empty: string;
  /** The rows (<li> elements); empty or absent shows `empty`. */
  children?: ReactNode[];
}) {
  return (
    <Card className="mt-6">
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <Button size="sm" onClick={onAdd}>
          <PlusIcon /> {addLabel}
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {note}
        {children && children.length > 0 ? (
          <ul className="divide-y divide-border">{children}</ul>
        ) : (
          <p className="text-sm text-muted">{empty}</p>
        )}
      </CardContent>
    </Card>
  );
}

/** A row's buttons: its own (`children`), then Pause/Resume and Delete. */
export function RowControls({
  pending,
  enabled,
  onPause,
  deleteLabel,
  onDelete,
  children,
}: {
  pending: boolean;
  enabled: boolean;
  onPause: () => void;
  deleteLabel: string;
  onDelete: () => void;
  children?: ReactNode;
}) {
  return (
    <div className="flex gap-1">
      {children}
      <Button size="sm" variant="outline" disabled={pending} onClick={onPause}>
        {enabled ? "Pause" : "Resume"}
      </Button>
      <Button
        size="icon"
        variant="ghost"
        className="text-danger"
        aria-label={deleteLabel}
        disabled={pending}
        onClick={onDelete}
      >
        <TrashIcon />
      </Button>
    </div>
  );
}
