"use client";
import { savePolicy, saveSso } from "@/lib/console/actions/org";
import { OidcConnectionForm } from "@/lib/auth/schemas";
import { PolicyForm } from "@/lib/orgs/schemas";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Button, Card, Checkbox, Field, fieldErrors, Input, Notice } from "./ui";

export function SettingsPanel(props: {
  orgSlug: string;
  isOwner: boolean;
  policy: PolicyForm;
  connection: { issuer: string; client_id: string; allowed_domains: string[] } | null;
  redirectUri: string;
}) {
  // Both forms share the page's one message: the data is what was saved.
  const form = useActionForm(async ([which, data]: ["policy" | "sso", FormData]) => {
    if (which === "policy") {
      const input = PolicyForm.safeParse({
        allow_password: data.has("allow_password"),
        allow_magic_link: data.has("allow_magic_link"),
        allow_sso: data.has("allow_sso"),
      });
      if (!input.success) return refuse(fieldErrors(input.error.issues));
      const result = await savePolicy(props.orgSlug, input.data);
      return result.ok ? { ok: true as const, data: "Sign-in methods saved." } : result;
    }
    const input = OidcConnectionForm.safeParse({
      issuer: String(data.get("issuer") ?? "").trim(),
      client_id: data.get("client_id"),
      client_secret: data.get("client_secret"),
      allowed_domains: String(data.get("allowed_domains") ?? "")
        .split(",")
        .map((d) => d.trim())
        .filter(Boolean),
    });
    if (!input.success) return refuse(fieldErrors(input.error.issues));
    const result = await saveSso(props.orgSlug, input.data);
    return result.ok ? { ok: true as const, data: "SSO connection saved." } : result;
  });
  const errors = form.fields;
  const notice = messageAbove(form.error, form.fields, ["issuer", "client_id", "client_secret", "allowed_domains"]);
  const message = form.error
    ? notice && { tone: "error" as const, text: notice }
    : form.data && { tone: "success" as const, text: form.data };

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
        <form
          action={(data) => form.action(["policy", data])}
          onResetCapture={form.keepAfterRefusal}
          className="space-y-3 text-sm"
        >
          {(
            [
              ["allow_sso", "Single sign-on (your identity provider)"],
              ["allow_password", "Password"],
              ["allow_magic_link", "Magic link by email"],
            ] as const
          ).map(([name, label]) => (
            <label key={name} className="flex items-center gap-2">
              <Checkbox name={name} defaultChecked={props.policy[name]} disabled={disabled} />
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
        <form
          action={(data) => form.action(["sso", data])}
          onResetCapture={form.keepAfterRefusal}
          className="grid gap-4 sm:grid-cols-2"
          noValidate
        >
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
