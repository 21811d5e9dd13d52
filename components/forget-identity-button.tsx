"use client";
// "Forget this identity": erases every memory about one person in the namespaces the viewer manages,
// after the identity id is typed; then says how many memories went.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { forgetIdentityAction } from "@/lib/console/actions/identities";
import { ConfirmDialog } from "./confirm-dialog";
import { Button, Notice } from "./ui";

const memories = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "memory" : "memories"}`;

export function ForgetIdentityButton({
  orgSlug,
  identityId,
  memoryCount,
}: {
  orgSlug: string;
  identityId: string;
  memoryCount: number;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<{ deleted: number; namespaces: number }>();
  return (
    <div className="flex flex-col items-start gap-2 sm:items-end">
      <Button variant="danger" onClick={() => setOpen(true)}>
        Forget this identity
      </Button>
      {result && (
        <Notice tone="success">
          Forgot {memories(result.deleted)}
          {result.namespaces > 0 && ` in ${result.namespaces} ${result.namespaces === 1 ? "namespace" : "namespaces"}`}.
        </Notice>
      )}
      {open && (
        <ConfirmDialog
          title="Forget this identity?"
          confirmLabel="Forget this identity"
          typeToConfirm={identityId}
          onCancel={() => setOpen(false)}
          onConfirm={async () => {
            const outcome = await forgetIdentityAction(orgSlug, { identity_id: identityId });
            if (!outcome.ok) return outcome.error;
            setResult(outcome.data);
            return undefined;
          }}
          onDone={() => {
            setOpen(false);
            router.refresh();
          }}
        >
          <p>
            This deletes every memory about <strong className="break-all font-mono">{identityId}</strong> in every
            namespace of the organization ({memories(memoryCount)} now), with their search data. It cannot be undone.
            The activity log keeps its record of past requests until it expires.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
