import { notFound, redirect } from "next/navigation";
import Link from "next/link";
import { ConsentForm } from "@/components/consent-form";
import { Notice } from "@/components/ui";
import { consentMember } from "@/lib/console/consent";
import { currentSession } from "@/lib/console/session";
import type { Metadata } from "next";

export const dynamic = "force-dynamic";

/**
 * Where an MCP client's authorization request sends the person (lib/oauth/provider.ts): signed in as usual,
 * they see which client asks for which namespace, choose read or read and write (no more than their own
 * access), and approve or deny.
 */
export const metadata: Metadata = { title: "Authorize a client" };

export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  // An authorization request's id is oidc-provider's (letters, digits, - and _): anything else is none.
  if (!/^[\w-]{1,100}$/.test(uid)) notFound();
  const session = await currentSession();
  if (!session) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/consent/${uid}`)}`);
  const state = await consentMember(uid);
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-6 py-12">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Memory Gateway</p>
      {"problem" in state ? (
        <>
          <h1 className="mt-2 text-2xl font-bold">Cannot connect this client</h1>
          <div className="mt-6">
            <Notice tone="error">{state.problem}</Notice>
          </div>
          <p className="mt-4 text-sm text-slate-600">
            Signed in as {session.user?.email}.{" "}
            <Link className="text-indigo-600 underline" href="/">
              Open the console
            </Link>
          </p>
        </>
      ) : (
        <>
          <h1 className="mt-2 text-2xl font-bold" data-testid="consent-title">
            Connect {state.pending.client.name} to {state.namespace.name}?
          </h1>
          <dl
            data-testid="consent-details"
            className="mt-6 space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm"
          >
            <div className="flex gap-2">
              <dt className="w-32 shrink-0 text-slate-500">Client</dt>
              <dd className="wrap-anywhere">
                <span className="font-medium">{state.pending.client.name}</span>{" "}
                <span className="text-slate-500">(the name it gave itself)</span>
              </dd>
            </div>
            <div className="flex gap-2">
              <dt className="w-32 shrink-0 text-slate-500">Returns to</dt>
              <dd className="break-all font-mono text-xs leading-5">{state.pending.client.redirectUri}</dd>
            </div>
            <div className="flex gap-2">
              <dt className="w-32 shrink-0 text-slate-500">Namespace</dt>
              <dd className="wrap-anywhere font-medium">{state.namespace.name}</dd>
            </div>
            <div className="flex gap-2">
              <dt className="w-32 shrink-0 text-slate-500">Organization</dt>
              <dd className="wrap-anywhere">{state.organization.name}</dd>
            </div>
            <div className="flex gap-2">
              <dt className="w-32 shrink-0 text-slate-500">Signed in as</dt>
              <dd className="wrap-anywhere">{session.user?.email}</dd>
            </div>
          </dl>
          <p className="mt-4 text-sm text-slate-600">
            Approve only a client you started yourself, returning where you expect. It will act as you in this namespace
            only: what it remembers carries your identity unless it names another, and the activity log shows it by its
            name. You can revoke it at any time on the API keys page.
          </p>
          <ConsentForm uid={uid} allowed={state.allowed} />
        </>
      )}
    </main>
  );
}
