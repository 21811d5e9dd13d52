"use client";
// One field of a namespace's overview, edited in place by those who manage it (the API's PATCH underneath).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { editNamespaceAction } from "@/lib/console/actions/namespaces";
import { useActionForm } from "./action-form";
import { Button, Input } from "./ui";

export function NamespaceFieldEditor(props: {
  orgSlug: string;
  namespaceId: string;
  field: "description" | "external_reference_id";
  label: string;
  value: string | null;
  canEdit: boolean;
  mono?: boolean;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  if (!editing) {
    return (
      <div className="flex min-w-0 flex-wrap items-start gap-2">
        <span
          data-testid={`namespace-${props.field}`}
          className={
            `min-w-0 break-words ${props.mono ? "font-mono text-xs" : ""} ` + (props.value ? "" : "text-slate-500")
          }
        >
          {props.value || "none"}
        </span>
        {props.canEdit && (
          <button
            type="button"
            className="text-xs text-indigo-600 hover:underline"
            onClick={() => setEditing(true)}
            aria-label={`Edit ${props.label.toLowerCase()}`}
          >
            Edit
          </button>
        )}
      </div>
    );
  }
  return (
    <FieldEditForm
      {...props}
      onCancel={() => setEditing(false)}
      onSaved={() => {
        setEditing(false);
        router.refresh();
      }}
    />
  );
}

/** Mounted while editing: cancelling unmounts it, and its last failure with it. */
function FieldEditForm(props: {
  orgSlug: string;
  namespaceId: string;
  field: "description" | "external_reference_id";
  label: string;
  value: string | null;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const form = useActionForm(
    (data: FormData) =>
      editNamespaceAction(props.orgSlug, {
        namespace_id: props.namespaceId,
        [props.field]: String(data.get("value") ?? ""),
      }),
    { onSuccess: props.onSaved },
  );
  const error = form.fields[props.field] ?? form.error;
  return (
    <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-2" noValidate>
      <Input
        name="value"
        defaultValue={error ? form.values.value : (props.value ?? "")}
        aria-label={props.label}
        aria-invalid={Boolean(error)}
        autoFocus
        autoComplete="off"
      />
      {error && (
        <p className="text-xs text-rose-600" role="alert">
          {error}
        </p>
      )}
      <p className="text-xs text-slate-500">Leave it empty to clear it.</p>
      <div className="flex gap-2">
        <Button type="submit" disabled={form.pending} className="!px-3 !py-1.5">
          Save
        </Button>
        <Button type="button" variant="secondary" className="!px-3 !py-1.5" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
