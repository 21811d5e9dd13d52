import { SignUpForm } from "@/components/sign-up-form";
import Link from "next/link";
import { Notice } from "@/components/ui";
import { mailConfigured } from "@/lib/auth/mail";
import { signUpAllowed } from "@/lib/orgs/sign-up";
import type { Metadata } from "next";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign up" };

export default function SignUpPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      <h1 className="mt-2 text-2xl font-bold">Create your account</h1>
      <p className="mt-2 text-sm text-slate-600">You get a new organization that you own; invite your team from it.</p>
      <div className="mt-8">
        {signUpAllowed() ? (
          <SignUpForm mailConfigured={mailConfigured()} />
        ) : (
          <Notice>
            Sign-up is turned off on this server. Ask an administrator of your organization for an invitation.
          </Notice>
        )}
      </div>
      <p className="mt-6 text-center text-sm text-slate-600">
        Have an account?{" "}
        <Link className="font-medium text-indigo-600 hover:underline" href="/sign-in">
          Sign in
        </Link>
      </p>
    </main>
  );
}
