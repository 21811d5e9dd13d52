"use client";
import { revokeKey } from "@/lib/console/actions/keys";
import { useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button } from "./ui";

/** Asks before revoking a key; `onDone` gets the failure's message, if any, once the dialog should close. */
export function RevokeKeyDialog(props: {
  orgSlug: string;
  apiKey: { id: string; name: string };
  onCancel: () => void;
  onDone: (error?: string) => void;
}) {
  // The dialog closes either way: the keys page shows a failure above the table.
  const form = useActionForm(
    async (_: undefined) => ({ ok: true as const, data: await revokeKey(props.orgSlug, { key_id: props.apiKey.id }) }),
    { onSuccess: (result) => props.onDone(result.ok ? undefined : result.error) },
  );
  return (
    <Dialog title={`Revoke “${props.apiKey.name}”?`} onClose={props.onCancel}>
      <p className="text-sm text-slate-700">
        Every request with this key fails at once with 401. This cannot be undone.
      </p>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button variant="danger" disabled={form.pending} onClick={() => form.run()}>
          Revoke key
        </Button>
      </div>
    </Dialog>
  );
}
