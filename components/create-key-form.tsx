"use client";
import { useState } from "react";
import { ApiKeyForm, KEY_NAME_MAX_LENGTH } from "@/lib/auth/schemas";
import { parseScopePairs } from "@/lib/auth/scopes";
import { generateApiKey } from "@/lib/console/actions/org";
import { Button, Card, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

const PERMISSION_LABELS: Record<string, string> = {
  NAMESPACE_READ: "Read (recall, ask, list namespaces)",
  NAMESPACE_WRITE: "Write (remember, forget)",
  NAMESPACE_MANAGE: "Manage namespaces",
  INTEGRATION_MANAGE: "Manage integrations",
};

/** The "Generate a key" form: what the key may do and reach; `onCreated` gets the secret to show once. */
export function CreateKeyForm(props: {
  orgSlug: string;
  namespaces: { id: string; name: string }[];
  allowedPermissions: string[];
  onCreated: (created: { name: string; secret: string }) => void;
  onCancel: () => void;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function generate(form: FormData) {
    const scopes = parseScopePairs(String(form.get("scopes") ?? "").split(","));
    if ("error" in scopes) return setErrors({ scopes: scopes.error });
    const input = ApiKeyForm.safeParse({
      name: form.get("name"),
      permissions: form.getAll("permissions"),
      scopes: scopes.scopes,
      namespace_ids: form.getAll("namespace_ids"),
    });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    setErrors({});
    setError(undefined);
    setBusy(true);
    const result = await generateApiKey(props.orgSlug, input.data).finally(() => setBusy(false));
    if (!result.ok) {
      setErrors(result.fields ?? {});
      return setError(result.error);
    }
    props.onCreated({ name: result.data.name, secret: result.data.secret });
  }

  return (
    <Card title="Generate a key" description="A key can never do more than your role allows.">
      <form action={generate} className="space-y-4" noValidate>
        {error && <Notice tone="error">{error}</Notice>}
        <Field
          label="Name"
          error={errors.name}
          hint="Something you will recognize later, like “support bot (production)”."
        >
          <Input name="name" maxLength={KEY_NAME_MAX_LENGTH} />
        </Field>
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">Permissions</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {props.allowedPermissions.map((permission) => (
              <label key={permission} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="permissions"
                  value={permission}
                  defaultChecked={permission === "NAMESPACE_READ"}
                />
                <span>{PERMISSION_LABELS[permission] ?? permission}</span>
              </label>
            ))}
          </div>
          {errors.permissions && (
            <p className="mt-1 text-xs text-rose-600" role="alert">
              {errors.permissions}
            </p>
          )}
        </fieldset>
        <Field
          label="Scopes (optional)"
          error={errors.scopes}
          hint="key=value pairs, comma-separated. The key then sees only memories carrying all of them."
        >
          <Input name="scopes" placeholder="team=sales, region=eu" />
        </Field>
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">Namespaces it may use</legend>
          {props.namespaces.length === 0 ? (
            <p className="mt-1 text-slate-500">
              No namespaces yet. A key with “Manage namespaces” can create them and is granted what it creates.
            </p>
          ) : (
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {props.namespaces.map((ns) => (
                <label key={ns.id} className="flex items-center gap-2">
                  <input type="checkbox" name="namespace_ids" value={ns.id} />
                  {ns.name}
                </label>
              ))}
            </div>
          )}
          {errors.namespace_ids && (
            <p className="mt-1 text-xs text-rose-600" role="alert">
              {errors.namespace_ids}
            </p>
          )}
        </fieldset>
        <div className="flex gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Generating…" : "Generate"}
          </Button>
          <Button type="button" variant="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
