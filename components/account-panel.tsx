"use client";
import { useState } from "react";
import {
  changePasswordAction,
  endAllSessionsAction,
  endSessionAction,
  setPasswordAction,
} from "@/lib/console/actions/account";
import { PasswordChangeForm, PasswordSetForm } from "@/lib/auth/account-schemas";
import { startSsoSignIn } from "./start-sso";
import { Button, Card, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

interface SessionRow {
  id: string;
  device: string;
  address: string;
  method: string;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

interface SsoLink {
  orgName: string;
  orgSlug: string;
  providerId: string;
  linked: boolean;
}

const SIGNED_OUT = "/sign-in";

export function AccountPanel(props: {
  email: string;
  hasPassword: boolean;
  signedInWith: string;
  linkedOrgName?: string;
  sessions: SessionRow[];
  ssoLinks: SsoLink[];
}) {
  const linked = props.linkedOrgName && `Single sign-on of ${props.linkedOrgName} is linked to your account.`;
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | undefined>(
    linked ? { tone: "success", text: linked } : undefined,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [sessions, setSessions] = useState(props.sessions);
  const [hasPassword, setHasPassword] = useState(props.hasPassword);
  const [busy, setBusy] = useState(false);

  async function run<T>(action: () => Promise<T>) {
    setBusy(true);
    setMessage(undefined);
    try {
      return await action();
    } catch {
      setMessage({ tone: "error", text: "The server could not be reached. Try again." });
    } finally {
      setBusy(false);
    }
  }

  async function submitPassword(form: FormData) {
    const input = PasswordChangeForm.safeParse({
      current_password: String(form.get("current_password") ?? ""),
      new_password: String(form.get("new_password") ?? ""),
    });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    await run(async () => {
      const result = await changePasswordAction(input.data);
      setErrors(result.ok ? {} : (result.fields ?? {}));
      if (!result.ok) return setMessage({ tone: "error", text: result.error });
      setSessions((rows) => rows.filter((row) => row.current));
      const others = result.data.endedSessions;
      const ended = others === 1 ? "1 other session was" : `${others} other sessions were`;
      setMessage({ tone: "success", text: `Password changed. ${ended} signed out.` });
    });
  }

  async function submitNewPassword(form: FormData) {
    const input = PasswordSetForm.safeParse({ new_password: String(form.get("new_password") ?? "") });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    await run(async () => {
      const result = await setPasswordAction(input.data);
      setErrors(result.ok ? {} : (result.fields ?? {}));
      if (!result.ok) return setMessage({ tone: "error", text: result.error });
      setHasPassword(true);
      setSessions((rows) => rows.filter((row) => row.current));
      const others = result.data.endedSessions;
      const ended = others === 1 ? "1 other session was" : `${others} other sessions were`;
      setMessage({ tone: "success", text: `Password set: you can now sign in with it. ${ended} signed out.` });
    });
  }

  async function endSession(row: SessionRow) {
    await run(async () => {
      const result = await endSessionAction({ session_id: row.id });
      if (!result.ok) return setMessage({ tone: "error", text: result.error });
      if (result.data.current) return window.location.assign(SIGNED_OUT);
      setSessions((rows) => rows.filter((other) => other.id !== row.id));
      setMessage({ tone: "success", text: `Signed out ${row.device}.` });
    });
  }

  async function endAll() {
    await run(async () => {
      const result = await endAllSessionsAction();
      if (!result.ok) return setMessage({ tone: "error", text: result.error });
      window.location.assign(SIGNED_OUT);
    });
  }

  // Back here once the identity provider signed the person in; next-auth links it to this session's account.
  const linkSso = (link: SsoLink) =>
    startSsoSignIn(link.providerId, `/account?linked=${encodeURIComponent(link.orgSlug)}`);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Your account</h1>
        <p className="mt-1 text-sm text-slate-600">
          {props.email} · this session signed in with {props.signedInWith}
        </p>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}

      <Card
        title="Active sessions"
        description="Every browser signed in to your account. Sign out any you do not recognize."
        actions={
          <Button variant="danger" disabled={busy} onClick={endAll}>
            Sign out everywhere
          </Button>
        }
      >
        <ul className="divide-y divide-slate-100" aria-label="Active sessions">
          {sessions.map((row) => (
            <li
              key={row.id}
              data-testid="session-row"
              className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
            >
              <div className="min-w-0">
                <p className="font-medium text-slate-900">
                  {row.device}
                  {row.current && <Badge>This session</Badge>}
                </p>
                <p className="mt-0.5 text-xs text-slate-600 wrap-anywhere">
                  {row.address} · {row.method} · signed in {row.signedInAt} · last active {row.lastActiveAt}
                </p>
              </div>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => endSession(row)}
                aria-label={row.current ? "Sign out this session" : `Sign out ${row.device}, ${row.address}`}
              >
                Sign out
              </Button>
            </li>
          ))}
        </ul>
      </Card>

      <Card title="Password" description="Changing or setting it signs out every other session.">
        {hasPassword ? (
          <form action={submitPassword} className="grid gap-4 sm:grid-cols-2" noValidate>
            <Field label="Current password" error={errors.current_password}>
              <Input name="current_password" type="password" autoComplete="current-password" />
            </Field>
            <Field label="New password" error={errors.new_password} hint="At least 8 characters.">
              <Input name="new_password" type="password" autoComplete="new-password" />
            </Field>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                Change password
              </Button>
            </div>
          </form>
        ) : (
          <form action={submitNewPassword} className="grid gap-4 sm:grid-cols-2" noValidate>
            <p className="text-sm text-slate-700 sm:col-span-2">
              This account has no password: it signs in with a magic link or single sign-on. Set one to sign in with it
              too.
            </p>
            <Field label="New password" error={errors.new_password} hint="At least 8 characters.">
              <Input name="new_password" type="password" autoComplete="new-password" />
            </Field>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={busy}>
                Set password
              </Button>
            </div>
          </form>
        )}
      </Card>

      <Card
        title="Single sign-on"
        description={
          "Link your organization's identity provider to this account, then sign in with it. " +
          "An identity provider can only sign in to an account that linked it here."
        }
      >
        {props.ssoLinks.length === 0 ? (
          <p className="text-sm text-slate-700">None of your organizations uses single sign-on.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {props.ssoLinks.map((link) => (
              <li
                key={link.providerId}
                data-testid="sso-link-row"
                className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
              >
                <span className="font-medium">{link.orgName}</span>
                {link.linked ? (
                  <Badge>Linked</Badge>
                ) : (
                  <Button variant="secondary" disabled={busy} onClick={() => run(() => linkSso(link))}>
                    Link single sign-on of {link.orgName}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function Badge({ children }: { children: string }) {
  return (
    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">
      {children}
    </span>
  );
}
