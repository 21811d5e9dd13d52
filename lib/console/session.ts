import { getServerSession, type Session } from "next-auth";
import { notFound, redirect } from "next/navigation";
import type { SignInMethod } from "@/lib/auth/console-sessions";
import { memberPrincipal } from "@/lib/auth/principal";
import { NotFoundError } from "@/lib/errors";
import { membershipById, membershipBySlug, organizationsOfUser } from "@/lib/orgs/members";
import { OrganizationSlug } from "@/lib/orgs/organizations";
import { lastOrganizationId } from "@/lib/orgs/users";
import { authOptions } from "./auth";

export async function currentSession(): Promise<Session | null> {
  const session = await getServerSession(await authOptions());
  return session?.userId ? session : null;
}

export const METHOD_LABELS: Record<SignInMethod, string> = {
  password: "password",
  magic_link: "magic link",
  sso: "single sign-on",
  invitation_link: "copied invitation link",
};

type PolicyOrganization = { id: string; allowPassword: boolean; allowMagicLink: boolean; allowSso: boolean };

export function allowedMethods(org: PolicyOrganization): SignInMethod[] {
  return [org.allowSso && "sso", org.allowPassword && "password", org.allowMagicLink && "magic_link"].filter(
    Boolean,
  ) as SignInMethod[];
}

/**
 * Whether a session may open the organization: its method is allowed, SSO only through this organization's
 * own provider, and a copied invitation link only in the organization that issued it (its copier, an owner or
 * admin there, may have opened it: it must not reach anything else the address is or becomes a member of).
 */
export function sessionAllowedIn(session: Session, org: PolicyOrganization): boolean {
  if (session.method === "sso") return org.allowSso && session.ssoOrgId === org.id;
  if (session.method === "invitation_link") return session.ssoOrgId === org.id;
  return allowedMethods(org).includes(session.method);
}

/**
 * The signed-in user's access to an organization, read afresh on every request (so removal, role and
 * policy changes apply to the very next one): null when there is no session, a 404 when the user is
 * not a member, `blocked` when the way they signed in is not allowed there.
 */
export async function organizationAccess(slug: string) {
  const session = await currentSession();
  if (!session) return null;
  // A page's slug comes from the URL as typed: one no organization can have (a NUL, say) is not found.
  if (!OrganizationSlug.safeParse(slug).success) return { session, membership: null, blocked: false } as const;
  const membership = await membershipBySlug(session.userId, slug);
  if (!membership) return { session, membership: null, blocked: false } as const;
  return {
    session,
    membership,
    org: membership.org,
    user: membership.user,
    /** The person as a principal of the domain's functions (the same rules as a key, see lib/auth/principal). */
    principal: memberPrincipal(membership),
    blocked: !sessionAllowedIn(session, membership.org),
  } as const;
}

/**
 * The person signed in to the console, as a member of the organization with this id (their sign-in method
 * allowed there), for routes outside the console's pages (the integrations callback); null otherwise.
 */
export async function memberOfOrganization(orgId: string) {
  const session = await currentSession().catch(() => null);
  if (!session) return null;
  const membership = await membershipById(session.userId, orgId);
  if (!membership || !sessionAllowedIn(session, membership.org)) return null;
  return memberPrincipal(membership);
}

/** For pages under /{org-slug}: the member's access, or a redirect to sign-in, or a 404. */
export async function requireOrganization(slug: string) {
  const access = await organizationAccess(slug);
  if (!access) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/${slug}`)}`);
  if (!access.membership) notFound();
  return access;
}

/**
 * For a page's data under /{org-slug}: the member's access, or null when the way they signed in is refused
 * there (the layout says so, and the page must read nothing).
 */
export async function memberAccess(slug: string) {
  const access = await requireOrganization(slug);
  return access.blocked ? null : access;
}

/**
 * A domain lookup for a page: what is not found (another organization's, or not visible to the person) is
 * the 404 page; any other failure is the error page.
 */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/** Where a signed-in user lands: the organization used last, else their first one. */
export async function landingPath(userId: string): Promise<string> {
  const [lastOrgId, organizations] = await Promise.all([lastOrganizationId(userId), organizationsOfUser(userId)]);
  const last = organizations.find((org) => org.id === lastOrgId) ?? organizations[0];
  return last ? `/${last.slug}` : "/sign-up?no_organization=1";
}
