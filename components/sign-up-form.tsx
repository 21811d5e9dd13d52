"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { signUpAction } from "@/lib/console/actions/sign-up";
import { SignUpForm as SignUpSchema } from "@/lib/orgs/schemas";
import { Button, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

export function SignUpForm({ mailConfigured }: { mailConfigured: boolean }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    const input = SignUpSchema.safeParse({
      email: form.get("email"),
      password: form.get("password"),
      organization: form.get("organization"),
    });
    setError(undefined);
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    setErrors({});
    setBusy(true);
    try {
      const result = await signUpAction(input.data);
      if (!result.ok) {
        setErrors(result.fields ?? {});
        return setError(result.error);
      }
      // The first account of a new server is ready at once; every other sign-up continues from the mail.
      if (!result.data.ready) return setSentTo(input.data.email);
      const signedIn = await signIn("credentials", {
        email: input.data.email,
        password: input.data.password,
        redirect: false,
      });
      window.location.assign(signedIn?.ok && !signedIn.error ? "/" : "/sign-in");
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <div className="space-y-4" data-testid="sign-up-sent">
        <Notice tone="success">Check your inbox: we sent a message to {sentTo}.</Notice>
        <p className="text-sm text-slate-700">
          Use the link in it to finish signing up. If the address already has an account, the message says so and tells
          you how to sign in instead.
        </p>
        {!mailConfigured && (
          <Notice>
            Development mode: no SMTP_URL is set, so the message is printed in the server log instead of being emailed.
          </Notice>
        )}
      </div>
    );
  }

  return (
    <form action={submit} className="space-y-4" noValidate>
      {error && <Notice tone="error">{error}</Notice>}
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="email" />
      </Field>
      <Field label="Password" error={errors.password} hint="At least 8 characters.">
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Organization name" error={errors.organization}>
        <Input name="organization" placeholder="Acme" />
      </Field>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
