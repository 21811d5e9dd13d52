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
import { InvalidError } from "@/lib/errors";
import { changeMemberRole, inviteMember, removeMember } from "@/lib/orgs/members";
import { updateSignInPolicy } from "@/lib/orgs/organizations";
import { InviteForm, PolicyForm, RemoveMemberForm, RoleForm } from "@/lib/orgs/schemas";
import { rememberLastOrganization } from "@/lib/orgs/users";

const ADMINS = ["owner", "admin"] as const;
const OWNERS = ["owner"] as const;

/** The organization the user opened, for their next sign-in to land there (called by the page, not a form). */
export async function rememberOrganization(orgSlug: string) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: z.undefined() }, undefined, async (context) => {
    await rememberLastOrganization(context.userId, context.orgId);
    return null;
  });
}

export async function invite(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: InviteForm }, form, async (context, input) => {
    const { orgId, orgName, orgSlug, role: byRole } = context;
    await inviteMember({ orgId, email: input.email, role: input.role, byRole }, context.actor);
    await sendInvitation({ email: input.email, orgName, orgSlug, invitedBy: context.email });
    revalidatePath(`/${context.orgSlug}/members`);
    // Without a mail server the link went to the server log only: the page must say so, not "sent".
    return { mailed: mailConfigured() };
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
