import type { ReactNode } from "react";
import Link from "next/link";
import { OrgSwitcher } from "@/components/org-switcher";
import { SignOutButton } from "@/components/sign-out-button";
import { RememberOrganization } from "@/components/remember-organization";
import { SidebarNav, type NavEntry } from "@/components/sidebar-nav";
import { Notice } from "@/components/ui";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { allowedMethods, METHOD_LABELS, requireOrganization } from "@/lib/console/session";
import { organizationsOfUser } from "@/lib/orgs/members";

export const dynamic = "force-dynamic";

// Above the page on a phone, beside it from the md breakpoint.
const SIDEBAR =
  "border-b border-slate-200 bg-white px-4 py-3 " +
  "md:min-h-[calc(100vh-57px)] md:w-56 md:shrink-0 md:border-b-0 md:border-r md:py-5";

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
  const { role } = access.membership;
  const admin = role !== "member";
  const nav: NavEntry[] = [
    { path: "", label: "Overview" },
    { path: "namespaces", label: "Namespaces" },
    { path: "identities", label: "Identities" },
    { path: "scopes", label: "Scopes" },
    ...(ROLE_PERMISSIONS[role].includes("INTEGRATION_MANAGE") ? [{ path: "integrations", label: "Integrations" }] : []),
    ...(ROLE_PERMISSIONS[role].includes("WEBHOOK_MANAGE") ? [{ path: "webhooks", label: "Webhooks" }] : []),
    { path: "keys", label: "API keys" },
    { path: "members", label: "Members" },
    ...(admin ? [{ path: "audit", label: "Audit log" }] : []),
    { path: "settings", label: "Settings" },
  ];
  return (
    <div className="min-h-screen">
      {/* Rendering only reads: the browser records the organization opened, for the next sign-in to land here
          (and that an invited member has joined). */}
      {!access.blocked && (user.lastOrgId !== org.id || !access.membership.joinedAt) && (
        <RememberOrganization orgSlug={org.slug} />
      )}
      <header className="border-b border-slate-200 bg-white">
        <div className="flex flex-wrap items-center gap-4 px-6 py-3">
          <Link href="/" className="text-sm font-semibold text-indigo-600">
            Memory Gateway
          </Link>
          <div className="ml-auto flex items-center gap-3 text-sm text-slate-600">
            <span data-testid="signed-in-as" className="hidden sm:inline">
              {user.email}
            </span>
            <Link href="/docs" className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">
              API reference
            </Link>
            <Link href="/account" className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">
              Account
            </Link>
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="md:flex">
        <aside className={SIDEBAR}>
          <div className="mb-3">
            <OrgSwitcher current={org.slug} organizations={organizations} />
          </div>
          {!access.blocked && <SidebarNav orgSlug={org.slug} entries={nav} />}
        </aside>
        <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 md:py-8">
          <div className="mx-auto max-w-6xl">
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
          </div>
        </main>
      </div>
    </div>
  );
}
