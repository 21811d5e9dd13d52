import { redirect } from "next/navigation";
import { SignInForm } from "@/components/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { mailConfigured } from "@/lib/auth/mail";
import { SIGN_IN_ERRORS } from "@/lib/auth/sign-in-errors";
import { currentSession, landingPath } from "@/lib/console/session";
import { publicUrl } from "@/lib/config";
import { signUpAllowed } from "@/lib/orgs/sign-up";
import type { Metadata } from "next";

export const dynamic = "force-dynamic";

type Search = Promise<{ error?: string; check_email?: string; callbackUrl?: string; method?: string }>;

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const search = await searchParams;
  const session = await currentSession();
  if (session && !search.method) redirect(await landingPath(session.userId));
  const error = search.error ? (SIGN_IN_ERRORS[search.error] ?? "Sign-in did not work. Try again.") : undefined;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      <h1 className="mt-2 text-2xl font-bold">Sign in to the console</h1>
      <SignInForm
        error={error}
        checkEmail={search.check_email === "1"}
        mailConfigured={mailConfigured()}
        signUpAllowed={signUpAllowed()}
        callbackUrl={safeCallbackPath(search.callbackUrl, publicUrl())}
        initialMethod={search.method === "sso" || search.method === "magic_link" ? search.method : "password"}
      />
    </main>
  );
}
