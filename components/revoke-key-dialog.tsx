"use client";
import { useState } from "react";
import { revokeKey } from "@/lib/console/actions/keys";
import { Dialog } from "./dialog";
import { Button } from "./ui";

/** Asks before revoking a key; `onDone` gets the failure's message, if any, once the dialog should close. */
export function RevokeKeyDialog(props: {
  orgSlug: string;
  apiKey: { id: string; name: string };
  onCancel: () => void;
  onDone: (error?: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  async function revoke() {
    setBusy(true);
    const result = await revokeKey(props.orgSlug, { key_id: props.apiKey.id }).finally(() => setBusy(false));
    props.onDone(result.ok ? undefined : result.error);
  }
  return (
    <Dialog title={`Revoke “${props.apiKey.name}”?`} onClose={props.onCancel}>
      <p className="text-sm text-slate-700">
        Every request with this key fails at once with 401. This cannot be undone.
      </p>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button variant="danger" disabled={busy} onClick={revoke}>
          Revoke key
        </Button>
      </div>
    </Dialog>
  );
}
