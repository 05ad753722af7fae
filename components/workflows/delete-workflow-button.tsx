"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TrashIcon } from "@/components/ui/icons";
import { SubmitButton } from "@/components/ui/submit-button";

/** "Delete" with a confirmation dialog; submits `id` to the delete action (which redirects to the list). */
export function DeleteWorkflowButton({
  id,
  name,
  action,
}: {
  id: string;
  name: string;
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
        description="Its saved versions and their runs are deleted too. This cannot be undone."
      >
        <form action={action} className="flex justify-end gap-2">
          <input type="hidden" name="id" value={id} />
          <Button variant="ghost" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <SubmitButton variant="danger">Delete workflow</SubmitButton>
        </form>
      </Dialog>
    </>
  );
}
