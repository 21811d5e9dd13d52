import { formatUtc } from "@/components/format";
import { redirect } from "next/navigation";
import Link from "next/link";
import { AccountPanel } from "@/components/account-panel";
import { SignOutButton } from "@/components/sign-out-button";
import { ssoLinks } from "@/lib/auth/account";
import { deviceName, listConsoleSessions } from "@/lib/auth/console-sessions";
import { currentSession, landingPath, METHOD_LABELS } from "@/lib/console/session";
import type { SignInMethod } from "@/lib/auth/console-sessions";
import { findUser } from "@/lib/orgs/users";
import type { Metadata } from "next";

export const dynamic = "force-dynamic";

type Search = Promise<{ linked?: string }>;

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage({ searchParams }: { searchParams: Search }) {
  const session = await currentSession();
  if (!session) redirect(`/sign-in?callbackUrl=${encodeURIComponent("/account")}`);
  const [user, sessions, links, home] = await Promise.all([
    findUser(session.userId),
    listConsoleSessions(session.userId),
    ssoLinks(session.userId),
    landingPath(session.userId),
  ]);
  const linkedOrg = (await searchParams).linked;
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-4 px-6 py-3">
          <Link href="/" className="text-sm font-semibold text-indigo-600">
            Memory Gateway
          </Link>
          <Link href={home} className="rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
            Back to the console
          </Link>
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
            <span data-testid="signed-in-as">{user.email}</span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-8">
        <AccountPanel
          email={user.email}
          hasPassword={Boolean(user.passwordHash)}
          signedInWith={METHOD_LABELS[session.method as SignInMethod]}
          linkedOrgName={links.find((link) => link.linked && link.orgSlug === linkedOrg)?.orgName}
          sessions={sessions.map((s) => ({
            id: s.id,
            device: deviceName(s.userAgent),
            address: s.clientAddress ?? "unknown",
            method: METHOD_LABELS[s.method as SignInMethod] ?? s.method,
            signedInAt: formatUtc(s.createdAt),
            lastActiveAt: formatUtc(s.lastSeenAt),
            current: s.id === session.sessionId,
          }))}
          ssoLinks={links}
        />
      </main>
    </div>
  );
}
