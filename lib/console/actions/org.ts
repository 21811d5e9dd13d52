"use server";
// The console's mutations under /{org-slug} for the organization itself (members, sign-in policy, SSO);
// the key actions are in keys.ts. Each is a runConsoleAction with its roles and form schema, then one
// domain call.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { mailConfigured } from "@/lib/auth/mail";
import { sendInvitation } from "@/lib/auth/magic-link";
import { ROLES } from "@/lib/auth/permissions";
import { OidcConnectionForm } from "@/lib/auth/schemas";
import { saveOidcConnection } from "@/lib/auth/sso";
import { runConsoleAction } from "@/lib/console/action";
import { METHOD_LABELS, sessionAllowedIn } from "@/lib/console/session";
import type { Actor } from "@/lib/audit/audit";
import { InvalidError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { issueInvitationLink } from "@/lib/orgs/invitation-link";
import { markMemberJoined } from "@/lib/orgs/mark-member-joined";
import { changeMemberRole, inviteMember, removeMember } from "@/lib/orgs/members";
import { updateSignInPolicy } from "@/lib/orgs/organizations";
import { InvitationForm, InviteForm, PolicyForm, RemoveMemberForm, RoleForm } from "@/lib/orgs/schemas";
import { rememberLastOrganization } from "@/lib/orgs/users";

const ADMINS = ["owner", "admin"] as const;
const OWNERS = ["owner"] as const;

/** The organization the user opened, for their next sign-in to land there (called by the page, not a form). */
export async function rememberOrganization(orgSlug: string) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: z.undefined() }, undefined, async (context) => {
    await rememberLastOrganization(context.userId, context.orgId);
    // Opening it is what turns an invited member into one who joined.
    await markMemberJoined(context.orgId, context.userId);
    return null;
  });
}

export async function invite(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: InviteForm }, form, async (context, input) => {
    const { orgId, role: byRole } = context;
    const user = await inviteMember({ orgId, email: input.email, role: input.role, byRole }, context.actor);
    await mailInvitation(orgId, user.id, context);
    revalidatePath(`/${context.orgSlug}/members`);
    // Without a mail server the link went to the server log only: the page must say so, not "sent".
    return { mailed: mailConfigured() };
  });
}

async function mailInvitation(orgId: string, userId: string, context: { actor: Actor; email: string; role: Role }) {
  const link = await issueInvitationLink({ orgId, userId, byRole: context.role, copied: false }, context.actor);
  await sendInvitation({ ...link, invitedBy: context.email });
}

/**
 * A new link for an invited member, shown once to the owner or admin asking (to send it themselves, say
 * without a mail server); earlier links for the invitation stop working. Only for an account that is
 * nothing but the invitation (lib/orgs/invitation-link.ts): never a link that signs in as someone else.
 */
export async function copyInvitationLink(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: InvitationForm }, form, async (context, input) => {
    const change = { orgId: context.orgId, userId: input.user_id, byRole: context.role, copied: true };
    const link = await issueInvitationLink(change, context.actor);
    revalidatePath(`/${context.orgSlug}/members`);
    return { url: link.url, expires_at: link.expiresAt.toISOString() };
  });
}

/** The invitation mailed again with a new link (the last one stops working); without a mail server, nothing. */
export async function resendInvitation(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: InvitationForm }, form, async (context, input) => {
    if (!mailConfigured()) return { mailed: false };
    await mailInvitation(context.orgId, input.user_id, context);
    revalidatePath(`/${context.orgSlug}/members`);
    return { mailed: true };
  });
}

export async function changeRole(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: RoleForm }, form, async (context, input) => {
    const change = { orgId: context.orgId, userId: input.user_id, role: input.role, byRole: context.role };
    await changeMemberRole(change, context.actor);
    revalidatePath(`/${context.orgSlug}/members`);
    return null;
  });
}

export async function remove(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: RemoveMemberForm }, form, async (context, input) => {
    const transferKeysTo = input.keys === "take_over" ? context.userId : undefined;
    const settled = await removeMember(
      { orgId: context.orgId, userId: input.user_id, byRole: context.role, transferKeysTo },
      context.actor,
    );
    revalidatePath(`/${context.orgSlug}/members`);
    revalidatePath(`/${context.orgSlug}/keys`);
    return { revoked: settled.revoked.length, transferred: settled.transferred.length };
  });
}

export async function savePolicy(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: OWNERS, input: PolicyForm }, form, async (context, input) => {
    const policy = {
      allowPassword: input.allow_password,
      allowMagicLink: input.allow_magic_link,
      allowSso: input.allow_sso,
    };
    // An owner must not lock themselves out through a method they have not used yet (an SSO setup that
    // does not work, say): they first sign in with a method that stays allowed.
    if (!sessionAllowedIn(context.session, { id: context.orgId, ...policy })) {
      throw new InvalidError(
        `You signed in with ${METHOD_LABELS[context.session.method]}, which this change turns off. ` +
          "Sign in with a method it keeps (for single sign-on, through this organization's identity provider), " +
          "then save it again.",
      );
    }
    await updateSignInPolicy(context.orgId, policy, context.actor);
    revalidatePath(`/${context.orgSlug}/settings`);
    return null;
  });
}

export async function saveSso(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: OWNERS, input: OidcConnectionForm }, form, async (context, input) => {
    await saveOidcConnection(context.orgId, input, context.actor);
    revalidatePath(`/${context.orgSlug}/settings`);
    return null;
  });
}
