"use client";
// "New namespace": a dialog with the API's fields and the organization's keys to grant it to (a key reaches
// only the namespaces granted to it: without one, the key made first gets 404 on the new namespace). The server
// action runs the API's own operations, so a name already taken comes back as the API's 409, shown next to the
// field it is about.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { createNamespaceAction } from "@/lib/console/actions/namespaces";
import { messageAbove, useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { Button, Checkbox, Field, Input, Notice } from "./ui";

/** A key the new namespace may be granted to: its name and the start of its secret. */
export interface KeyChoice {
  id: string;
  name: string;
  display: string;
}

/**
 * `keys`: the organization's active keys (`grantableKeys`). `initiallyOpen`: the page opens with the dialog
 * (`?create`, the getting-started checklist's link).
 */
export function CreateNamespaceButton({
  orgSlug,
  keys,
  initiallyOpen = false,
}: {
  orgSlug: string;
  keys: KeyChoice[];
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <Button onClick={() => setOpen(true)}>New namespace</Button>
      {open && <CreateNamespaceDialog orgSlug={orgSlug} keys={keys} onClose={() => setOpen(false)} />}
    </>
  );
}

function CreateNamespaceDialog(props: { orgSlug: string; keys: KeyChoice[]; onClose: () => void }) {
  const { orgSlug, keys, onClose } = props;
  const router = useRouter();
  // The only key is ticked: it is the one the checklist had the person make first.
  const [keyIds, setKeyIds] = useState<string[]>(keys.length === 1 ? [keys[0].id] : []);
  const form = useActionForm(
    (data: FormData) =>
      createNamespaceAction(orgSlug, {
        name: String(data.get("name") ?? ""),
        description: String(data.get("description") ?? ""),
        external_reference_id: String(data.get("external_reference_id") ?? ""),
        // In the list's order, whatever the order they were ticked in.
        api_key_ids: keys.filter((key) => keyIds.includes(key.id)).map((key) => key.id),
      }),
    {
      onSuccess: (created) => {
        onClose();
        router.push(`/${orgSlug}/namespaces/${created.id}`);
      },
    },
  );
  const { fields, values } = form;
  const error = messageAbove(form.error, fields, ["name", "description", "external_reference_id", "api_key_ids"]);
  const keysError = Object.entries(fields).find(([field]) => field.startsWith("api_key_ids"))?.[1];

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
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">API keys that may use it</legend>
          {keys.length === 0 ? (
            <p className="mt-1 text-xs text-slate-600">
              This organization has no API key yet. A key made later reaches this namespace once it is granted it: when
              the key is made, or from this namespace&apos;s permissions panel.
            </p>
          ) : (
            <>
              <p className="mt-1 text-xs text-slate-600">
                A key reaches only the namespaces granted to it; any other answers 404. You can change this later in the
                namespace&apos;s permissions panel.
              </p>
              <div className="mt-2 grid max-h-40 gap-x-4 gap-y-1.5 overflow-y-auto sm:grid-cols-2">
                {keys.map((key) => (
                  <label key={key.id} className="flex min-w-0 items-center gap-2">
                    <Checkbox
                      checked={keyIds.includes(key.id)}
                      onCheckedChange={(checked) =>
                        setKeyIds((ids) => (checked === true ? [...ids, key.id] : ids.filter((id) => id !== key.id)))
                      }
                    />
                    <span className="min-w-0 truncate" title={`${key.name} (${key.display})`}>
                      {key.name} <span className="font-mono text-xs text-slate-500">{key.display}</span>
                    </span>
                  </label>
                ))}
              </div>
            </>
          )}
          {keysError && (
            <p className="mt-1 text-xs text-rose-700" role="alert">
              {keysError}
            </p>
          )}
        </fieldset>
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
