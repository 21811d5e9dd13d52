"use client";
import { signIn } from "next-auth/react";
import Link from "next/link";
import { useState } from "react";
import { startSso } from "@/lib/console/actions/sign-in";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { SsoStartForm } from "@/lib/auth/schemas";
import { SIGN_IN_ERRORS as MESSAGES } from "@/lib/auth/sign-in-errors";
import { Email } from "@/lib/orgs/schemas";
import { refuse, useActionForm, type FormRefusal } from "./action-form";
import { startSsoSignIn } from "./start-sso";
import { Button, Field, Input, Notice, useHydrated } from "./ui";

type Method = "password" | "magic_link" | "sso";

/** A sign-in that went on (the browser is on its way, or the data is what to tell the person). */
const going = (info?: string) => ({ ok: true as const, data: info });
const failed = (error: string): FormRefusal => ({ ok: false, error });

export function SignInForm(props: {
  error?: string;
  checkEmail: boolean;
  mailConfigured: boolean;
  signUpAllowed: boolean;
  callbackUrl: string;
  initialMethod: Method;
}) {
  const [method, setMethod] = useState<Method>(props.initialMethod);
  // Controlled: React resets a form after its action runs, and a wrong password must not cost the email too.
  const [email, setEmail] = useState("");
  // The page already sanitized it; checked again against this origin because it decides where the browser goes.
  const callbackPath = () => safeCallbackPath(props.callbackUrl, window.location.origin);

  const form = useActionForm(
    async ([chosen, data]: [Method, FormData]) => {
      if (chosen === "sso") {
        const input = SsoStartForm.safeParse({ email_or_slug: String(data.get("email_or_slug") ?? "") });
        if (!input.success) return refuse({}, input.error.issues[0].message);
        const result = await startSso(input.data);
        if (!result.ok) return result;
        await startSsoSignIn(result.data.providerId, callbackPath());
        return going();
      }
      const address = Email.safeParse(data.get("email"));
      if (!address.success) return refuse({}, "Enter a valid email address.");
      if (chosen === "magic_link") {
        const result = await signIn("email", { email: address.data, redirect: false, callbackUrl: callbackPath() });
        if (result?.status === 429) return failed(MESSAGES.RateLimited);
        if (result?.error) return failed("The link could not be sent. Try again.");
        return going(
          "If an account exists for that address, a sign-in link is on its way. It works once, for 10 minutes.",
        );
      }
      const result = await signIn("credentials", {
        email: address.data,
        password: String(data.get("password") ?? ""),
        redirect: false,
        callbackUrl: callbackPath(),
      });
      if (!result?.ok || result.error) {
        return failed(
          MESSAGES[result?.error ?? ""] ??
            (result?.status === 429 ? MESSAGES.RateLimited : MESSAGES.InvalidCredentials),
        );
      }
      window.location.assign(callbackPath());
      return going();
    },
    {
      initial: {
        error: props.error,
        data: props.checkEmail ? "If an account exists for that address, a sign-in link is on its way." : undefined,
      },
    },
  );
  // Choosing another method hides the last failure (it was about the other one); what was sent stays.
  const [dismissed, setDismissed] = useState<typeof form.state>();
  const error = form.state !== dismissed ? form.error : undefined;
  const info = form.data;
  const busy = form.pending;

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
              setDismissed(form.state);
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
        <form
          action={(data) => form.action(["password", data])}
          onResetCapture={form.keepAfterRefusal}
          className="space-y-4"
        >
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
        <form
          action={(data) => form.action(["magic_link", data])}
          onResetCapture={form.keepAfterRefusal}
          className="space-y-4"
        >
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
        <form
          action={(data) => form.action(["sso", data])}
          onResetCapture={form.keepAfterRefusal}
          className="space-y-4"
        >
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
          <Link className="font-medium text-indigo-600 hover:underline" href="/sign-up">
            Create an account
          </Link>
        </p>
      )}
    </div>
  );
}
