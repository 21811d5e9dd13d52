"use client";
import { useState } from "react";
import { savePolicy, saveSso } from "@/lib/console/actions/org";
import { OidcConnectionForm } from "@/lib/auth/schemas";
import { PolicyForm } from "@/lib/orgs/schemas";
import { Button, Card, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

export function SettingsPanel(props: {
  orgSlug: string;
  isOwner: boolean;
  policy: PolicyForm;
  connection: { issuer: string; client_id: string; allowed_domains: string[] } | null;
  redirectUri: string;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string }>();

  async function report(result: { ok: boolean; error?: string; fields?: FieldErrors }, success: string) {
    setErrors(result.ok ? {} : (result.fields ?? {}));
    setMessage(
      result.ok ? { tone: "success", text: success } : { tone: "error", text: result.error ?? "That did not work." },
    );
  }

  async function submitPolicy(form: FormData) {
    const input = PolicyForm.safeParse({
      allow_password: form.has("allow_password"),
      allow_magic_link: form.has("allow_magic_link"),
      allow_sso: form.has("allow_sso"),
    });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    await report(await savePolicy(props.orgSlug, input.data), "Sign-in methods saved.");
  }

  async function submitSso(form: FormData) {
    const input = OidcConnectionForm.safeParse({
      issuer: String(form.get("issuer") ?? "").trim(),
      client_id: form.get("client_id"),
      client_secret: form.get("client_secret"),
      allowed_domains: String(form.get("allowed_domains") ?? "")
        .split(",")
        .map((d) => d.trim())
        .filter(Boolean),
    });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    await report(await saveSso(props.orgSlug, input.data), "SSO connection saved.");
  }

  const disabled = !props.isOwner;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Settings</h1>
      {!props.isOwner && <Notice>Only owners change these settings.</Notice>}
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <Card
        title="Sign-in methods"
        description="A session started with a method this organization does not allow cannot open it."
      >
        <form action={submitPolicy} className="space-y-3 text-sm">
          {(
            [
              ["allow_sso", "Single sign-on (your identity provider)"],
              ["allow_password", "Password"],
              ["allow_magic_link", "Magic link by email"],
            ] as const
          ).map(([name, label]) => (
            <label key={name} className="flex items-center gap-2">
              <input type="checkbox" name={name} defaultChecked={props.policy[name]} disabled={disabled} />
              {label}
            </label>
          ))}
          {errors.allow_password && (
            <p className="text-xs text-rose-600" role="alert">
              {errors.allow_password}
            </p>
          )}
          <Button type="submit" disabled={disabled}>
            Save sign-in methods
          </Button>
        </form>
      </Card>
      <Card
        title="Single sign-on (OIDC)"
        description={
          <>
            Register this redirect URI with your identity provider:{" "}
            <code data-testid="sso-redirect-uri" className="break-all font-mono text-xs">
              {props.redirectUri}
            </code>
          </>
        }
      >
        <form action={submitSso} className="grid gap-4 sm:grid-cols-2" noValidate>
          <Field label="Issuer URL" error={errors.issuer}>
            <Input
              name="issuer"
              defaultValue={props.connection?.issuer}
              disabled={disabled}
              placeholder="https://idp.example.com"
            />
          </Field>
          <Field label="Client ID" error={errors.client_id}>
            <Input name="client_id" defaultValue={props.connection?.client_id} disabled={disabled} />
          </Field>
          <Field
            label="Client secret"
            error={errors.client_secret}
            hint={props.connection ? "Stored encrypted. Leave empty to keep the current one." : "Stored encrypted."}
          >
            <Input name="client_secret" type="password" disabled={disabled} autoComplete="off" />
          </Field>
          <Field
            label="Allowed email domains"
            error={errors.allowed_domains ?? errors["allowed_domains.0"]}
            hint="Comma-separated. People of these domains join as members on their first SSO sign-in."
          >
            <Input
              name="allowed_domains"
              defaultValue={props.connection?.allowed_domains.join(", ")}
              disabled={disabled}
              placeholder="example.com"
            />
          </Field>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={disabled}>
              Save SSO connection
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
