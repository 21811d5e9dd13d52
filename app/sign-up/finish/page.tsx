import { FinishSignUpForm } from "@/components/finish-sign-up-form";
import Link from "next/link";
import { Notice } from "@/components/ui";
import type { Metadata } from "next";

export const dynamic = "force-dynamic";

type Search = Promise<{ token?: string | string[]; email?: string | string[] }>;

// The finish-sign-up mail's link: the token proves the address, the password asked here proves that
// whoever holds the address also filled in the sign-up form (lib/orgs/sign-up.ts finishSignUp).
export const metadata: Metadata = { title: "Finish signing up" };

export default async function FinishSignUpPage({ searchParams }: { searchParams: Search }) {
  const { token, email } = await searchParams;
  const complete = typeof token === "string" && token !== "" && typeof email === "string" && email !== "";
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-6 py-12">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      <h1 className="mt-2 text-2xl font-bold">Finish signing up</h1>
      <div className="mt-8">
        {complete ? (
          <FinishSignUpForm email={email} token={token} />
        ) : (
          <Notice tone="error">This link is incomplete. Open the link from the email again, in full.</Notice>
        )}
      </div>
      <p className="mt-6 text-sm text-slate-600">
        Did not sign up? Leave this page: nothing happens without the password that was chosen.
      </p>
      <p className="mt-2 text-sm text-slate-600">
        Forgot the password you chose?{" "}
        <Link className="font-medium text-indigo-600 hover:underline" href="/sign-in?method=magic_link">
          Sign in with a magic link
        </Link>{" "}
        instead, then set a new password on your account page.
      </p>
    </main>
  );
}
