"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TrashIcon } from "@/components/ui/icons";
import { SubmitButton } from "@/components/ui/submit-button";

/** "Delete collection" with a confirmation naming what goes with it. */
export function DeleteCollectionButton({
  id,
  name,
  documents,
  action,
}: {
  id: string;
  name: string;
  documents: number;
  action: (form: FormData) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <TrashIcon /> Delete
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete “${name}”?`}
        description={`Its ${documents} document${documents === 1 ? "" : "s"} and all their chunks are deleted. Agents using this collection will find nothing. This cannot be undone.`}
      >
        <form action={action} className="flex justify-end gap-2">
          <input type="hidden" name="id" value={id} />
          <Button variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <SubmitButton variant="danger">Delete collection</SubmitButton>
        </form>
      </Dialog>
    </>
  );
}
