"use client";
// Asks before something that cannot be undone; for the worst (deleting a namespace, forgetting an identity)
// the person types the name first.
import { useState, type ReactNode } from "react";
import { useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button, Field, Input, Notice } from "./ui";

/**
 * `onConfirm` runs the action and returns its failure's message, if any (shown in the dialog, which stays
 * open); on success the dialog calls `onDone`. With `typeToConfirm`, the button stays disabled until that
 * exact text is typed.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  typeToConfirm?: string;
  onConfirm: () => Promise<string | undefined>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [typed, setTyped] = useState("");
  const ready = props.typeToConfirm === undefined || typed === props.typeToConfirm;
  const form = useActionForm(
    async (_: undefined) => {
      const failure = await props.onConfirm();
      return failure ? { ok: false as const, error: failure } : { ok: true as const, data: null };
    },
    { onSuccess: props.onDone },
  );
  return (
    <Dialog title={props.title} onClose={props.onCancel}>
      <div className="space-y-4 text-sm text-slate-700">
        {props.children}
        {props.typeToConfirm !== undefined && (
          <Field label={`Type ${props.typeToConfirm} to confirm`}>
            <Input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" />
          </Field>
        )}
        {form.error && <Notice tone="error">{form.error}</Notice>}
      </div>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button variant="danger" disabled={form.pending || !ready} onClick={() => form.run()}>
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
