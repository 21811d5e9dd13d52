"use client";
import { useState } from "react";
import type { Permission } from "@/lib/auth/permissions";
import { ApiKeyEditForm } from "@/lib/auth/schemas";
import { formatScopePairs, parseScopeText } from "@/lib/auth/scopes";
import { editApiKey } from "@/lib/console/actions/keys";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { KeyAccessFields, keyAccessConflict, type KeyAccess } from "./key-access-fields";
import { Button, fieldErrors, Notice } from "./ui";

/**
 * Changes what an existing key may do and reach (permissions, namespaces, scopes); the key's next request
 * already runs with it. `onDone` gets the success message to show.
 */
export function EditKeyDialog(props: {
  orgSlug: string;
  apiKey: {
    id: string;
    name: string;
    permissions: string[];
    scopes: Record<string, string>;
    namespaces: { id: string; name: string }[];
  };
  namespaces: { id: string; name: string }[];
  allowedPermissions: Permission[];
  canCreateNamespace: boolean;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const [access, setAccess] = useState<KeyAccess>({
    permissions: props.apiKey.permissions as Permission[],
    // Only the namespaces this person sees: the server keeps the key's other grants as they are.
    namespaceIds: props.apiKey.namespaces.map((ns) => ns.id).filter((id) => props.namespaces.some((n) => n.id === id)),
    scopes: formatScopePairs(props.apiKey.scopes),
  });
  const form = useActionForm(
    async () => {
      const scopes = parseScopeText(access.scopes);
      if ("error" in scopes) return refuse({ scopes: scopes.error });
      const conflict = keyAccessConflict(access);
      if (conflict) return refuse({ scopes: conflict });
      const input = ApiKeyEditForm.safeParse({
        key_id: props.apiKey.id,
        permissions: access.permissions,
        scopes: scopes.scopes,
        namespace_ids: access.namespaceIds,
      });
      if (!input.success) return refuse(fieldErrors(input.error.issues));
      return editApiKey(props.orgSlug, input.data);
    },
    {
      onSuccess: () =>
        props.onDone(`Key “${props.apiKey.name}” updated: its next request already runs with the change.`),
    },
  );

  const notice = messageAbove(form.error, form.fields, ["permissions", "namespace_ids", "scopes"]);
  return (
    <Dialog title={`Edit “${props.apiKey.name}”`} onClose={props.onCancel} wide>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
        {notice && <Notice tone="error">{notice}</Notice>}
        <KeyAccessFields
          orgSlug={props.orgSlug}
          value={access}
          onChange={setAccess}
          allowedPermissions={props.allowedPermissions}
          namespaces={props.namespaces}
          canCreateNamespace={props.canCreateNamespace}
          errors={form.fields}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.pending || keyAccessConflict(access) !== undefined}>
            {form.pending ? "Saving…" : "Save changes"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
