"use client";
// Deleting a memory from the explorer: asked first, then the memory, its chunks and vectors are gone.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteMemory } from "@/lib/console/actions/memories";
import { ConfirmDialog } from "./confirm-dialog";
import { Button } from "./ui";

export function DeleteMemoryButton(props: {
  orgSlug: string;
  namespaceId: string;
  memoryId: string;
  /** Where to go once it is deleted (the explorer, from the memory's own page). */
  afterDelete: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Delete memory
      </Button>
      {open && (
        <ConfirmDialog
          title="Delete this memory?"
          confirmLabel="Delete memory"
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            const result = await deleteMemory(props.orgSlug, {
              namespace_id: props.namespaceId,
              memory_id: props.memoryId,
            });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setOpen(false);
            router.push(props.afterDelete);
          }}
        >
          <p>
            The memory <span className="break-all font-mono">{props.memoryId}</span> and its chunks are deleted: recall
            and ask no longer find it. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
