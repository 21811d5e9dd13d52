"use client";
// Editing a memory from its page: content, metadata, scopes, identity, event time and expiry, saved through
// the operation of PATCH /memories/{id} (lib/console/actions/memories.ts), which keeps the version it
// replaces. Only the fields changed here are sent, so an untouched expiry that is about to pass, or
// anything else left as it was, is never written again.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { updateMemoryAction } from "@/lib/console/actions/memories";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Button, Field, Input, Notice, Textarea } from "./ui";

/** The memory's editable fields as the form shows them (text). */
export interface EditableMemory {
  content: string;
  metadata: string;
  scopes: string;
  identity_id: string;
  occurred_at: string;
  expires_at: string;
}

const FIELDS = ["content", "metadata", "scopes", "identity_id", "occurred_at", "expires_at"] as const;

export function MemoryEditForm(props: {
  orgSlug: string;
  namespaceId: string;
  memoryId: string;
  version: number;
  initial: EditableMemory;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<number | null>(null);
  if (!editing) {
    return (
      <div className="space-y-3">
        {saved !== null && <Notice tone="success">Saved as version {saved}. The history below lists it.</Notice>}
        <p className="text-sm text-slate-600">
          An edit keeps the version it replaces: the history below shows who changed what, and when.
        </p>
        <Button
          variant="secondary"
          onClick={() => {
            setSaved(null);
            setEditing(true);
          }}
        >
          Edit memory
        </Button>
      </div>
    );
  }
  return (
    <EditFields
      {...props}
      onCancel={() => setEditing(false)}
      onSaved={(version) => {
        setSaved(version);
        setEditing(false);
        router.refresh();
      }}
    />
  );
}

/** Mounted while editing: cancelling unmounts it, and its last failure with it. */
function EditFields(props: {
  orgSlug: string;
  namespaceId: string;
  memoryId: string;
  version: number;
  initial: EditableMemory;
  onCancel: () => void;
  onSaved: (version: number) => void;
}) {
  const form = useActionForm(
    async (data: FormData) => {
      const changed: Partial<EditableMemory> = {};
      for (const field of FIELDS) {
        const value = String(data.get(field) ?? "");
        if (value !== props.initial[field]) changed[field] = value;
      }
      if (Object.keys(changed).length === 0) return refuse({}, "Nothing was changed: edit a field, or cancel.");
      return updateMemoryAction(props.orgSlug, {
        namespace_id: props.namespaceId,
        memory_id: props.memoryId,
        ...changed,
      });
    },
    { onSuccess: (data) => props.onSaved(data.version) },
  );
  const value = (field: keyof EditableMemory) => (field in form.values ? form.values[field] : props.initial[field]);
  const notice = messageAbove(form.error, form.fields, FIELDS);
  return (
    <form action={form.action} className="space-y-4" noValidate aria-label="Edit memory">
      {notice && <Notice tone="error">{notice}</Notice>}
      <Field label="Content" error={form.fields.content}>
        <Textarea name="content" defaultValue={value("content")} rows={6} required />
      </Field>
      <Field
        label="Metadata"
        error={form.fields.metadata}
        hint='A JSON object of strings, numbers, booleans or null, like {"source": "chat"}; replaces it whole.'
      >
        <Textarea name="metadata" defaultValue={value("metadata")} rows={3} className="font-mono text-xs" />
      </Field>
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Scopes" error={form.fields.scopes} hint="key=value pairs, comma-separated; replaces them whole.">
          <Input name="scopes" defaultValue={value("scopes")} autoComplete="off" />
        </Field>
        <Field label="Identity" error={form.fields.identity_id} hint="Whom the memory is about; empty clears it.">
          <Input name="identity_id" defaultValue={value("identity_id")} autoComplete="off" />
        </Field>
        <Field
          label="Happened at"
          error={form.fields.occurred_at}
          hint="ISO 8601 with a time zone (2026-05-07T13:56:00Z) or a date."
        >
          <Input name="occurred_at" defaultValue={value("occurred_at")} autoComplete="off" />
        </Field>
        <Field label="Expires at" error={form.fields.expires_at} hint="In the future, ISO 8601; empty: never expires.">
          <Input name="expires_at" defaultValue={value("expires_at")} autoComplete="off" />
        </Field>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={form.pending}>
          {form.pending ? "Saving…" : "Save changes"}
        </Button>
        <Button type="button" variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
