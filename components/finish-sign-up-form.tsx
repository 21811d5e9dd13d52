"use client";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { finishSignUpAction } from "@/lib/console/actions/finish-sign-up";
import { Button, Field, Input, Notice, type FieldErrors } from "./ui";

export function FinishSignUpForm({ email, token }: { email: string; token: string }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(form: FormData) {
    const password = String(form.get("password") ?? "");
    setError(undefined);
    if (!password) return setErrors({ password: "enter the password you chose" });
    setErrors({});
    setBusy(true);
    try {
      const result = await finishSignUpAction({ email, token, password });
      if (!result.ok) {
        setErrors(result.fields ?? {});
        return setError(result.error);
      }
      // The account is confirmed: the same email and password now sign in like any other time.
      const signedIn = await signIn("credentials", { email, password, redirect: false });
      window.location.assign(signedIn?.ok && !signedIn.error ? "/" : "/sign-in");
    } catch {
      setError("The server could not be reached. Try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form action={submit} className="space-y-4" noValidate>
      {error && <Notice tone="error">{error}</Notice>}
      <p className="text-sm text-slate-700">
        Enter the password you chose when signing up as <span className="font-medium wrap-anywhere">{email}</span>.
      </p>
      <Field label="Password" error={errors.password}>
        <Input name="password" type="password" autoComplete="current-password" autoFocus />
      </Field>
      <Button type="submit" disabled={busy} className="w-full">
        {busy ? "Finishing…" : "Finish signing up"}
      </Button>
    </form>
  );
}
