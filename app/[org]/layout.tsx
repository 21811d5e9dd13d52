import type { ReactNode } from "react";
import { OrgSwitcher } from "@/components/org-switcher";
import { SignOutButton } from "@/components/sign-out-button";
import { RememberOrganization } from "@/components/remember-organization";
import { Notice } from "@/components/ui";
import { allowedMethods, METHOD_LABELS, requireOrganization } from "@/lib/console/session";
import { organizationsOfUser } from "@/lib/orgs/members";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ org: string }>;
}) {
  const { org: slug } = await params;
  const access = await requireOrganization(slug);
  const { org, user, session } = access;
  const organizations = await organizationsOfUser(user.id);
  const nav = [
    ["keys", "API keys"],
    ["members", "Members"],
    ["settings", "Settings"],
  ];
  return (
    <div className="min-h-screen">
      {/* Rendering only reads: the browser records the organization opened, for the next sign-in to land here. */}
      {!access.blocked && user.lastOrgId !== org.id && <RememberOrganization orgSlug={org.slug} />}
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-4 px-6 py-3">
          <a href="/" className="text-sm font-semibold text-indigo-600">
            Memory Gateway
          </a>
          <OrgSwitcher current={org.slug} organizations={organizations} />
          {!access.blocked && (
            <nav className="flex gap-1 text-sm">
              {nav.map(([path, label]) => (
                <a
                  key={path}
                  href={`/${org.slug}/${path}`}
                  className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100"
                >
                  {label}
                </a>
              ))}
            </nav>
          )}
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
            <span data-testid="signed-in-as">{user.email}</span>
            <a href="/account" className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">
              Account
            </a>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-8">
        {access.blocked ? (
          <div className="max-w-xl space-y-4">
            <h1 className="text-xl font-semibold">{org.name} needs another sign-in method</h1>
            <Notice tone="error">
              You signed in with {METHOD_LABELS[session.method]}
              {session.method === "sso" ? " through another organization" : ""}, which {org.name} does not allow.
            </Notice>
            <p className="text-sm text-slate-700">
              Sign out, then sign in with{" "}
              {allowedMethods(org)
                .map((m) => METHOD_LABELS[m])
                .join(" or ")}
              :
            </p>
            <SignOutButton
              label="Sign out and sign in again"
              callbackUrl={`/sign-in?method=${allowedMethods(org)[0]}`}
            />
          </div>
        ) : (
          children
        )}
      </main>
    </div>
  );
}
