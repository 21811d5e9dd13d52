"use client";
import { signIn } from "next-auth/react";
import { finishSignUpAction } from "@/lib/console/actions/finish-sign-up";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Button, Field, Input, Notice } from "./ui";

export function FinishSignUpForm({ email, token }: { email: string; token: string }) {
  const form = useActionForm(
    async (data: FormData) => {
      const password = String(data.get("password") ?? "");
      if (!password) return refuse({ password: "enter the password you chose" });
      return finishSignUpAction({ email, token, password });
    },
    {
      // The account is confirmed: the same email and password now sign in like any other time.
      onSuccess: async (_confirmed, data) => {
        const password = String(data.get("password"));
        const signedIn = await signIn("credentials", { email, password, redirect: false });
        window.location.assign(signedIn?.ok && !signedIn.error ? "/" : "/sign-in");
      },
    },
  );
  const errors = form.fields;

  return (
    <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
      {messageAbove(form.error, errors, ["password"]) && <Notice tone="error">{form.error}</Notice>}
      <p className="text-sm text-slate-700">
        Enter the password you chose when signing up as <span className="font-medium wrap-anywhere">{email}</span>.
      </p>
      <Field label="Password" error={errors.password}>
        <Input name="password" type="password" autoComplete="current-password" autoFocus />
      </Field>
      <Button type="submit" disabled={form.pending} className="w-full">
        {form.pending ? "Finishing…" : "Finish signing up"}
      </Button>
    </form>
  );
}
