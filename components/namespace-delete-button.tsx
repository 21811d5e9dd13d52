"use client";
// Deleting a namespace takes its memories with it: the person types its name first, told how many go.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteNamespaceAction } from "@/lib/console/actions/namespaces";
import { ConfirmDialog } from "./confirm-dialog";
import { Button } from "./ui";

export function DeleteNamespaceButton(props: {
  orgSlug: string;
  namespace: { id: string; name: string; memoryCount: number };
  /** Where to go once it is deleted (the list, from the namespace's own page); stays put otherwise. */
  afterDelete?: string;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const { namespace } = props;
  const count = namespace.memoryCount;
  const memories = `${count.toLocaleString("en-US")} ${count === 1 ? "memory" : "memories"}`;
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Delete ${namespace.name}`}>
        Delete
      </Button>
      {open && (
        <ConfirmDialog
          title={`Delete “${namespace.name}”?`}
          confirmLabel="Delete namespace"
          typeToConfirm={namespace.name}
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            const result = await deleteNamespaceAction(props.orgSlug, { namespace_id: namespace.id });
            return result.ok ? undefined : result.error;
          }}
          onDone={() => {
            setOpen(false);
            if (props.afterDelete) router.push(props.afterDelete);
            else router.refresh();
          }}
        >
          <p>
            Its <strong>{memories}</strong> will be deleted with it, along with every grant to it and its MCP endpoint.
            API keys and people lose access at once. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
