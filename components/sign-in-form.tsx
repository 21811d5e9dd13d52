"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { startSso } from "@/lib/console/actions/sign-in";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { SsoStartForm } from "@/lib/auth/schemas";
import { SIGN_IN_ERRORS as MESSAGES } from "@/lib/auth/sign-in-errors";
import { Email } from "@/lib/orgs/schemas";
import { startSsoSignIn } from "./start-sso";
import { Button, Field, Input, Notice, useHydrated } from "./ui";

type Method = "password" | "magic_link" | "sso";

export function SignInForm(props: {
  error?: string;
  checkEmail: boolean;
  mailConfigured: boolean;
  signUpAllowed: boolean;
  callbackUrl: string;
  initialMethod: Method;
}) {
  const [method, setMethod] = useState<Method>(props.initialMethod);
  const [error, setError] = useState<string | undefined>(props.error);
  const [info, setInfo] = useState<string | undefined>(
    props.checkEmail ? "If an account exists for that address, a sign-in link is on its way." : undefined,
  );
  const [busy, setBusy] = useState(false);
  // Controlled: React resets a form after its action runs, and a wrong password must not cost the email too.
  const [email, setEmail] = useState("");
  // The page already sanitized it; checked again against this origin because it decides where the browser goes.
  const callbackPath = () => safeCallbackPath(props.callbackUrl, window.location.origin);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    setInfo(undefined);
    try {
      await action();
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setBusy(false);
    }
  }

  async function passwordSignIn(form: FormData) {
    const email = Email.safeParse(form.get("email"));
    if (!email.success) return setError("Enter a valid email address.");
    await run(async () => {
      const result = await signIn("credentials", {
        email: email.data,
        password: String(form.get("password") ?? ""),
        redirect: false,
        callbackUrl: callbackPath(),
      });
      if (result?.ok && !result.error) window.location.assign(callbackPath());
      else
        setError(
          MESSAGES[result?.error ?? ""] ??
            (result?.status === 429 ? MESSAGES.RateLimited : MESSAGES.InvalidCredentials),
        );
    });
  }

  async function magicLink(form: FormData) {
    const email = Email.safeParse(form.get("email"));
    if (!email.success) return setError("Enter a valid email address.");
    await run(async () => {
      const result = await signIn("email", { email: email.data, redirect: false, callbackUrl: callbackPath() });
      if (result?.status === 429) setError(MESSAGES.RateLimited);
      else if (result?.error) setError("The link could not be sent. Try again.");
      else
        setInfo("If an account exists for that address, a sign-in link is on its way. It works once, for 10 minutes.");
    });
  }

  async function sso(form: FormData) {
    const input = SsoStartForm.safeParse({ email_or_slug: String(form.get("email_or_slug") ?? "") });
    if (!input.success) return setError(input.error.issues[0].message);
    await run(async () => {
      const result = await startSso(input.data);
      if (!result.ok) return setError(result.error);
      await startSsoSignIn(result.data.providerId, callbackPath());
    });
  }

  const hydrated = useHydrated();
  const tabs: [Method, string][] = [
    ["password", "Password"],
    ["magic_link", "Magic link"],
    ["sso", "SSO"],
  ];
  return (
    <div className="mt-8 space-y-6">
      <div className="grid grid-cols-3 gap-1 rounded-lg bg-slate-200 p-1 text-sm" role="tablist">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            role="tab"
            aria-selected={method === id}
            disabled={!hydrated}
            onClick={() => {
              setMethod(id);
              setError(undefined);
            }}
            className={
              "rounded-md px-3 py-1.5 font-medium " +
              (method === id ? "bg-white shadow-sm" : "text-slate-600 hover:text-slate-900")
            }
          >
            {label}
          </button>
        ))}
      </div>
      {error && <Notice tone="error">{error}</Notice>}
      {info && <Notice tone="success">{info}</Notice>}
      {method === "password" && (
        <form action={passwordSignIn} className="space-y-4">
          <Field label="Email">
            <Input
              name="email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </Field>
          <Field label="Password">
            <Input name="password" type="password" autoComplete="current-password" required />
          </Field>
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Signing in…" : "Sign in"}
          </Button>
        </form>
      )}
      {method === "magic_link" && (
        <form action={magicLink} className="space-y-4">
          <Field label="Email" hint="We email you a link that signs you in once, within 10 minutes.">
            <Input name="email" type="email" autoComplete="email" required />
          </Field>
          {!props.mailConfigured && (
            <Notice>
              Development mode: no SMTP_URL is set, so the link is printed in the server log instead of being emailed.
            </Notice>
          )}
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Sending…" : "Email me a sign-in link"}
          </Button>
        </form>
      )}
      {method === "sso" && (
        <form action={sso} className="space-y-4">
          <Field label="Work email or organization slug">
            <Input name="email_or_slug" autoComplete="email" required />
          </Field>
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? "Redirecting…" : "Continue with SSO"}
          </Button>
        </form>
      )}
      {props.signUpAllowed && (
        <p className="text-center text-sm text-slate-600">
          New here?{" "}
          <a className="font-medium text-indigo-600 hover:underline" href="/sign-up">
            Create an account
          </a>
        </p>
      )}
    </div>
  );
}
