"use client";
import { useState } from "react";
import { generateApiKey, revokeKey } from "@/app/[org]/actions";
import { ApiKeyForm } from "@/lib/auth/schemas";
import { Button, Card, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

interface KeyRow {
  id: string;
  name: string;
  display: string;
  permissions: string[];
  scopes: Record<string, string>;
  namespaces: { id: string; name: string }[];
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const PERMISSION_LABELS: Record<string, string> = {
  NAMESPACE_READ: "Read (recall, ask, list namespaces)",
  NAMESPACE_WRITE: "Write (remember, forget)",
  NAMESPACE_MANAGE: "Manage namespaces",
  INTEGRATION_MANAGE: "Manage integrations",
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

/** "team=sales, region=eu" → { team: "sales", region: "eu" }; a malformed pair is reported by the schema. */
function parseScopePairs(text: string): Record<string, string> | string {
  const scopes: Record<string, string> = {};
  for (const pair of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.indexOf("=");
    if (eq <= 0) return `"${pair}" is not key=value`;
    scopes[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return scopes;
}

export function KeysPanel(props: { orgSlug: string; keys: KeyRow[]; namespaces: { id: string; name: string }[]; allowedPermissions: string[]; canRevokeAll: boolean; currentUserEmail: string }) {
  const [creating, setCreating] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [copied, setCopied] = useState(false);
  const [revoking, setRevoking] = useState<KeyRow>();

  async function generate(form: FormData) {
    const scopes = parseScopePairs(String(form.get("scopes") ?? ""));
    if (typeof scopes === "string") return setErrors({ scopes });
    const input = ApiKeyForm.safeParse({ name: form.get("name"), permissions: form.getAll("permissions"), scopes, namespace_ids: form.getAll("namespace_ids") });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    setErrors({});
    setError(undefined);
    setBusy(true);
    const result = await generateApiKey(props.orgSlug, input.data).finally(() => setBusy(false));
    if (!result.ok) {
      setErrors(result.fields ?? {});
      return setError(result.error);
    }
    setCreating(false);
    setCopied(false);
    setCreated({ name: result.data.name, secret: result.data.secret });
  }

  async function revoke(key: KeyRow) {
    setBusy(true);
    const result = await revokeKey(props.orgSlug, { key_id: key.id }).finally(() => setBusy(false));
    setRevoking(undefined);
    if (!result.ok) setError(result.error);
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">API keys</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Applications call the API with a key. <strong>To rotate a key</strong>: generate a new one, switch your application to it, then revoke the old one.
          </p>
        </div>
        <Button onClick={() => { setCreating(true); setErrors({}); setError(undefined); }}>Generate key</Button>
      </div>
      {error && !creating && <Notice tone="error">{error}</Notice>}

      {creating && (
        <Card title="Generate a key" description="A key can never do more than your role allows.">
          <form action={generate} className="space-y-4" noValidate>
            {error && <Notice tone="error">{error}</Notice>}
            <Field label="Name" error={errors.name} hint="Something you will recognize later, like “support bot (production)”."><Input name="name" /></Field>
            <fieldset className="text-sm">
              <legend className="font-medium text-slate-700">Permissions</legend>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                {props.allowedPermissions.map((permission) => (
                  <label key={permission} className="flex items-center gap-2">
                    <input type="checkbox" name="permissions" value={permission} defaultChecked={permission === "NAMESPACE_READ"} />
                    <span>{PERMISSION_LABELS[permission] ?? permission}</span>
                  </label>
                ))}
              </div>
              {errors.permissions && <p className="mt-1 text-xs text-rose-600" role="alert">{errors.permissions}</p>}
            </fieldset>
            <Field label="Scopes (optional)" error={errors.scopes} hint="key=value pairs, comma-separated. The key then sees only memories carrying all of them.">
              <Input name="scopes" placeholder="team=sales, region=eu" />
            </Field>
            <fieldset className="text-sm">
              <legend className="font-medium text-slate-700">Namespaces it may use</legend>
              {props.namespaces.length === 0 ? (
                <p className="mt-1 text-slate-500">No namespaces yet. A key with “Manage namespaces” can create them and is granted what it creates.</p>
              ) : (
                <div className="mt-2 grid gap-2 sm:grid-cols-2">
                  {props.namespaces.map((ns) => (
                    <label key={ns.id} className="flex items-center gap-2"><input type="checkbox" name="namespace_ids" value={ns.id} />{ns.name}</label>
                  ))}
                </div>
              )}
            </fieldset>
            <div className="flex gap-2">
              <Button type="submit" disabled={busy}>{busy ? "Generating…" : "Generate"}</Button>
              <Button type="button" variant="secondary" onClick={() => setCreating(false)}>Cancel</Button>
            </div>
          </form>
        </Card>
      )}

      {props.keys.length === 0 ? (
        <Card title="No keys yet"><p className="text-sm text-slate-600">Generate a key to let an application remember and recall.</p></Card>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-500">
              <tr>{["Name", "Key", "Permissions", "Scopes", "Namespaces", "Created by", "Created", "Last used", ""].map((h) => <th key={h} className="px-4 py-2 font-medium">{h}</th>)}</tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {props.keys.map((key) => (
                <tr key={key.id} data-testid="key-row" className={key.revokedAt ? "text-slate-400" : ""}>
                  <td className="px-4 py-2 font-medium">{key.name}</td>
                  <td className="px-4 py-2 font-mono text-xs">{key.display}</td>
                  <td className="px-4 py-2 text-xs">{key.permissions.join(", ")}</td>
                  <td className="px-4 py-2 text-xs">{Object.entries(key.scopes).map(([k, v]) => `${k}=${v}`).join(", ") || "—"}</td>
                  <td className="px-4 py-2 text-xs">{key.namespaces.map((ns) => ns.name).join(", ") || "—"}</td>
                  <td className="px-4 py-2 text-xs">{key.createdBy ?? "—"}</td>
                  <td className="px-4 py-2 text-xs">{when(key.createdAt)}</td>
                  <td className="px-4 py-2 text-xs">{when(key.lastUsedAt)}</td>
                  <td className="px-4 py-2 text-right">
                    {key.revokedAt ? (
                      <span className="text-xs">Revoked</span>
                    ) : (props.canRevokeAll || key.createdBy === props.currentUserEmail) ? (
                      <Button variant="secondary" onClick={() => setRevoking(key)}>Revoke</Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {created && (
        <Dialog title={`Your new key “${created.name}”`}>
          <p className="text-sm text-slate-700">Copy it now and store it somewhere safe. <strong>You will not see it again.</strong></p>
          <div className="mt-3 flex items-center gap-2">
            <code data-testid="new-key-secret" className="flex-1 break-all rounded-md bg-slate-100 px-3 py-2 font-mono text-sm">{created.secret}</code>
            <Button variant="secondary" onClick={() => navigator.clipboard?.writeText(created.secret).then(() => setCopied(true))}>{copied ? "Copied" : "Copy"}</Button>
          </div>
          <div className="mt-5 text-right"><Button onClick={() => setCreated(undefined)}>I have stored it</Button></div>
        </Dialog>
      )}

      {revoking && (
        <Dialog title={`Revoke “${revoking.name}”?`}>
          <p className="text-sm text-slate-700">Every request with this key fails at once with 401. This cannot be undone.</p>
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setRevoking(undefined)}>Cancel</Button>
            <Button variant="danger" disabled={busy} onClick={() => revoke(revoking)}>Revoke key</Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}

function Dialog({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="fixed inset-0 z-10 flex items-center justify-center bg-slate-900/40 p-4">
      <div role="dialog" aria-modal="true" aria-label={title} className="w-full max-w-lg rounded-lg bg-white p-6 shadow-xl">
        <h2 className="text-lg font-semibold">{title}</h2>
        <div className="mt-3">{children}</div>
      </div>
    </div>
  );
}
