"use client";
import { useState } from "react";
import {
  changePasswordAction,
  endAllSessionsAction,
  endSessionAction,
  setPasswordAction,
} from "@/lib/console/actions/account";
import { PasswordChangeForm, PasswordSetForm } from "@/lib/auth/account-schemas";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { startSsoSignIn } from "./start-sso";
import { Button, Card, Field, fieldErrors, Input, Notice } from "./ui";

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

/** What the page's forms and buttons ask for; they share its one message. */
type AccountChange =
  | ["change_password", FormData]
  | ["set_password", FormData]
  | ["end_session", SessionRow]
  | ["end_all"]
  | ["link_sso", SsoLink];

const endedSessions = (others: number) => (others === 1 ? "1 other session was" : `${others} other sessions were`);

export function AccountPanel(props: {
  email: string;
  hasPassword: boolean;
  signedInWith: string;
  linkedOrgName?: string;
  sessions: SessionRow[];
  ssoLinks: SsoLink[];
}) {
  const linked = props.linkedOrgName && `Single sign-on of ${props.linkedOrgName} is linked to your account.`;
  const [sessions, setSessions] = useState(props.sessions);
  const [hasPassword, setHasPassword] = useState(props.hasPassword);
  const success = (text?: string) => ({ ok: true as const, data: text });

  const form = useActionForm(
    async ([change, subject]: AccountChange) => {
      if (change === "change_password") {
        const input = PasswordChangeForm.safeParse({
          current_password: String(subject.get("current_password") ?? ""),
          new_password: String(subject.get("new_password") ?? ""),
        });
        if (!input.success) return refuse(fieldErrors(input.error.issues));
        const result = await changePasswordAction(input.data);
        if (!result.ok) return result;
        setSessions((rows) => rows.filter((row) => row.current));
        return success(`Password changed. ${endedSessions(result.data.endedSessions)} signed out.`);
      }
      if (change === "set_password") {
        const input = PasswordSetForm.safeParse({ new_password: String(subject.get("new_password") ?? "") });
        if (!input.success) return refuse(fieldErrors(input.error.issues));
        const result = await setPasswordAction(input.data);
        if (!result.ok) return result;
        setHasPassword(true);
        setSessions((rows) => rows.filter((row) => row.current));
        const ended = endedSessions(result.data.endedSessions);
        return success(`Password set: you can now sign in with it. ${ended} signed out.`);
      }
      if (change === "end_session") {
        const result = await endSessionAction({ session_id: subject.id });
        if (!result.ok) return result;
        if (result.data.current) {
          window.location.assign(SIGNED_OUT);
          return success();
        }
        setSessions((rows) => rows.filter((other) => other.id !== subject.id));
        return success(`Signed out ${subject.device}.`);
      }
      if (change === "end_all") {
        const result = await endAllSessionsAction();
        if (!result.ok) return result;
        window.location.assign(SIGNED_OUT);
        return success();
      }
      // Back here once the identity provider signed the person in; next-auth links it to this session's account.
      await startSsoSignIn(subject.providerId, `/account?linked=${encodeURIComponent(subject.orgSlug)}`);
      return success();
    },
    { initial: { data: linked || undefined } },
  );
  const { fields: errors, pending: busy } = form;
  const notice = messageAbove(form.error, form.fields, ["current_password", "new_password"]);
  const message = form.error
    ? notice && { tone: "error" as const, text: notice }
    : form.data && { tone: "success" as const, text: form.data };
  const endSession = (row: SessionRow) => form.run(["end_session", row]);
  const endAll = () => form.run(["end_all"]);

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
          <form
            action={(data) => form.action(["change_password", data])}
            onResetCapture={form.keepAfterRefusal}
            className="grid gap-4 sm:grid-cols-2"
            noValidate
          >
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
          <form
            action={(data) => form.action(["set_password", data])}
            onResetCapture={form.keepAfterRefusal}
            className="grid gap-4 sm:grid-cols-2"
            noValidate
          >
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
                  <Button variant="secondary" disabled={busy} onClick={() => form.run(["link_sso", link])}>
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
