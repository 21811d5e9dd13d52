"use client";
import { signIn } from "next-auth/react";
import { signUpAction } from "@/lib/console/actions/sign-up";
import { SignUpForm as SignUpSchema } from "@/lib/orgs/schemas";
import { messageAbove, refuse, useActionForm } from "./action-form";
import { Button, Field, fieldErrors, Input, Notice } from "./ui";

export function SignUpForm({ mailConfigured }: { mailConfigured: boolean }) {
  const form = useActionForm(
    async (data: FormData) => {
      const input = SignUpSchema.safeParse({
        email: data.get("email"),
        password: data.get("password"),
        organization: data.get("organization"),
      });
      if (!input.success) return refuse(fieldErrors(input.error.issues));
      const result = await signUpAction(input.data);
      return result.ok ? { ok: true as const, data: { ...result.data, ...input.data } } : result;
    },
    {
      // The first account of a new server is ready at once; every other sign-up continues from the mail.
      onSuccess: async ({ ready, email, password }) => {
        if (!ready) return;
        const signedIn = await signIn("credentials", { email, password, redirect: false });
        window.location.assign(signedIn?.ok && !signedIn.error ? "/" : "/sign-in");
      },
    },
  );
  const sentTo = form.data && !form.data.ready ? form.data.email : undefined;
  const errors = form.fields;

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
    <form action={form.action} onResetCapture={form.keepAfterRefusal} className="space-y-4" noValidate>
      {messageAbove(form.error, errors, ["email", "password", "organization"]) && (
        <Notice tone="error">{form.error}</Notice>
      )}
      <Field label="Email" error={errors.email}>
        <Input name="email" type="email" autoComplete="email" />
      </Field>
      <Field label="Password" error={errors.password} hint="At least 8 characters.">
        <Input name="password" type="password" autoComplete="new-password" />
      </Field>
      <Field label="Organization name" error={errors.organization}>
        <Input name="organization" placeholder="Acme" />
      </Field>
      <Button type="submit" disabled={form.pending} className="w-full">
        {form.pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
