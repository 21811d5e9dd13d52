"use client";
import { useState } from "react";
import type { Permission } from "@/lib/auth/permissions";
import { ApiKeyForm, KEY_NAME_MAX_LENGTH } from "@/lib/auth/schemas";
import { parseScopeText } from "@/lib/auth/scopes";
import { generateApiKey } from "@/lib/console/actions/keys";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Dialog } from "./dialog";
import { KeyAccessFields, keyAccessConflict, type KeyAccess } from "./key-access-fields";
import { Button, Field, fieldErrors, Input, Notice } from "./ui";

/** The "Generate a key" dialog: what the key may do and reach; `onCreated` gets the secret to show once. */
export function CreateKeyForm(props: {
  orgSlug: string;
  namespaces: { id: string; name: string }[];
  allowedPermissions: Permission[];
  canCreateNamespace: boolean;
  /** Prefilled scopes (the scopes page links here with `?scopes=team=sales`). */
  initialScopes?: string;
  onCreated: (created: { name: string; secret: string }) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [access, setAccess] = useState<KeyAccess>({
    // The default a new key can do something with: read and write in the namespaces chosen below.
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    namespaceIds: props.namespaces.length === 1 ? [props.namespaces[0].id] : [],
    scopes: props.initialScopes ?? "",
  });
  const form = useActionForm(
    async () => {
      const scopes = parseScopeText(access.scopes);
      if ("error" in scopes) return refuse({ scopes: scopes.error });
      const conflict = keyAccessConflict(access);
      if (conflict) return refuse({ scopes: conflict });
      const input = ApiKeyForm.safeParse({
        name,
        permissions: access.permissions,
        scopes: scopes.scopes,
        namespace_ids: access.namespaceIds,
      });
      if (!input.success) return refuse(fieldErrors(input.error.issues));
      return generateApiKey(props.orgSlug, input.data);
    },
    { onSuccess: (created) => props.onCreated({ name: created.name, secret: created.secret }) },
  );
  const errors = form.fields;
  const notice = messageAbove(form.error, errors, ["name", "permissions", "namespace_ids", "scopes"]);

  return (
    <Dialog title="Generate a key" onClose={props.onCancel} wide>
      <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
        {notice && <Notice tone="error">{notice}</Notice>}
        <Field
          label="Name"
          error={errors.name}
          hint="Something you will recognize later, like “support bot (production)”."
        >
          <Input name="name" maxLength={KEY_NAME_MAX_LENGTH} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <KeyAccessFields
          orgSlug={props.orgSlug}
          value={access}
          onChange={setAccess}
          allowedPermissions={props.allowedPermissions}
          namespaces={props.namespaces}
          canCreateNamespace={props.canCreateNamespace}
          errors={errors}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={form.pending || keyAccessConflict(access) !== undefined}>
            {form.pending ? "Generating…" : "Generate"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
