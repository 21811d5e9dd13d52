"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { signUpAction } from "@/app/sign-up/actions";
import { SignUpForm as SignUpSchema } from "@/lib/orgs/schemas";
import { Button, Field, fieldErrors, Input, Notice, type FieldErrors } from "./ui";

export function SignUpForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    const input = SignUpSchema.safeParse({ email: form.get("email"), password: form.get("password"), organization: form.get("organization") });
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
      const signedIn = await signIn("credentials", { email: input.data.email, password: input.data.password, redirect: false });
      window.location.assign(signedIn?.ok ? `/${result.data.slug}/keys` : "/sign-in");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form action={submit} className="space-y-4" noValidate>
      {error && <Notice tone="error">{error}</Notice>}
      <Field label="Email" error={errors.email}><Input name="email" type="email" autoComplete="email" /></Field>
      <Field label="Password" error={errors.password} hint="At least 8 characters."><Input name="password" type="password" autoComplete="new-password" /></Field>
      <Field label="Organization name" error={errors.organization}><Input name="organization" placeholder="Acme" /></Field>
      <Button type="submit" disabled={busy} className="w-full">{busy ? "Creating…" : "Create account"}</Button>
    </form>
  );
}
