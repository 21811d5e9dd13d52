"use client";
// "New namespace": a dialog with the API's fields. The server action runs the API's own operation, so a
// name already taken comes back as the API's 409, shown next to the field it is about.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createNamespaceAction } from "@/lib/console/actions/namespaces";
import { useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button, Field, Input, Notice } from "./ui";

export function CreateNamespaceButton({ orgSlug }: { orgSlug: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>New namespace</Button>
      {open && <CreateNamespaceDialog orgSlug={orgSlug} onClose={() => setOpen(false)} />}
    </>
  );
}

function CreateNamespaceDialog({ orgSlug, onClose }: { orgSlug: string; onClose: () => void }) {
  const router = useRouter();
  const form = useActionForm(
    (data: FormData) =>
      createNamespaceAction(orgSlug, {
        name: String(data.get("name") ?? ""),
        description: String(data.get("description") ?? ""),
        external_reference_id: String(data.get("external_reference_id") ?? ""),
      }),
    {
      onSuccess: (created) => {
        onClose();
        router.push(`/${orgSlug}/namespaces/${created.id}`);
      },
    },
  );
  const { fields, values } = form;
  // A message already shown next to its field is not repeated above the buttons.
  const error = form.error && !Object.values(fields).includes(form.error) ? form.error : undefined;

  return (
    <Dialog title="New namespace" onClose={onClose}>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
        <Field label="Name" error={fields.name} hint="Unique in this organization, e.g. support-bot.">
          <Input name="name" required maxLength={255} autoComplete="off" defaultValue={values.name} />
        </Field>
        <Field label="Description" error={fields.description} hint="Optional: what goes into it.">
          <Input name="description" autoComplete="off" defaultValue={values.description} />
        </Field>
        <Field
          label="External reference id"
          error={fields.external_reference_id}
          hint="Optional: your own id for it (a customer or project id); the API can address it by this id."
        >
          <Input name="external_reference_id" autoComplete="off" defaultValue={values.external_reference_id} />
        </Field>
        {error && <Notice tone="error">{error}</Notice>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.pending}>
            Create namespace
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
