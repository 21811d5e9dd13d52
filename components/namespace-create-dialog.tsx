"use client";
// "New namespace": a dialog with the API's fields. The server action runs the API's own operation, so a
// name already taken comes back as the API's 409, shown next to the field it is about.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { createNamespaceAction } from "@/lib/console/actions/namespaces";
import { Dialog } from "./dialog";
import { Button, Field, Input, Notice, type FieldErrors } from "./ui";

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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [fields, setFields] = useState<FieldErrors>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    const result = await createNamespaceAction(orgSlug, {
      name: String(form.get("name") ?? ""),
      description: String(form.get("description") ?? ""),
      external_reference_id: String(form.get("external_reference_id") ?? ""),
    }).finally(() => setBusy(false));
    if (result.ok) {
      onClose();
      router.push(`/${orgSlug}/namespaces/${result.data.id}`);
      return;
    }
    setFields(result.fields ?? {});
    // A message already shown next to its field is not repeated above the buttons.
    const shownInline = Object.values(result.fields ?? {}).includes(result.error);
    setError(result.fields && Object.keys(result.fields).length > 0 && shownInline ? undefined : result.error);
  }

  return (
    <Dialog title="New namespace" onClose={onClose}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Name" error={fields.name} hint="Unique in this organization, e.g. support-bot.">
          <Input name="name" required maxLength={255} autoComplete="off" aria-invalid={Boolean(fields.name)} />
        </Field>
        <Field label="Description" error={fields.description} hint="Optional: what goes into it.">
          <Input name="description" autoComplete="off" aria-invalid={Boolean(fields.description)} />
        </Field>
        <Field
          label="External reference id"
          error={fields.external_reference_id}
          hint="Optional: your own id for it (a customer or project id); the API can address it by this id."
        >
          <Input name="external_reference_id" autoComplete="off" aria-invalid={Boolean(fields.external_reference_id)} />
        </Field>
        {error && <Notice tone="error">{error}</Notice>}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            Create namespace
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
