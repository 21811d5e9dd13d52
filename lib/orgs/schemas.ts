// Form and request schemas of organizations and users: importable by console forms in the browser.
import { z } from "zod";
import { Email, Password, PASSWORD_MAX_LENGTH } from "@/lib/auth/account-schemas";
import { ROLES } from "@/lib/auth/permissions";
import { identifier, name, text } from "@/lib/validation/strings";

// Accounts' own fields are lib/auth's (sign-in reads them too); organizations' forms use them.
export { Email, Password, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PersonName } from "@/lib/auth/account-schemas";

export const OrganizationName = name({ max: 255 }).min(1, "must not be empty");
export const RoleName = z.enum(ROLES, `must be ${ROLES.slice(0, -1).join(", ")} or ${ROLES.at(-1)}`);

export const SignUpForm = z.strictObject({ email: Email, password: Password, organization: OrganizationName });
/**
 * The page the finish-sign-up mail links to: the mailed token and address, and the password chosen at
 * sign-up (any length it could have had, so a wrong one is told apart from a malformed form).
 */
export const FinishSignUpForm = z.strictObject({
  email: Email,
  token: identifier({ min: 1, max: 200 }),
  password: text({ max: PASSWORD_MAX_LENGTH }).min(1, "enter the password you chose"),
});
export const InviteForm = z.strictObject({ email: Email, role: RoleName });
export const RoleForm = z.strictObject({ user_id: identifier({ min: 1 }), role: RoleName });
/** An invited member's invitation: a link copied, or the mail sent again. */
export const InvitationForm = z.strictObject({ user_id: identifier({ min: 1 }) });
/** Removing a member: their keys are revoked, or taken over by the person removing them. */
export const RemoveMemberForm = z.strictObject({
  user_id: identifier({ min: 1 }),
  keys: z.enum(["revoke", "take_over"], "must be revoke or take_over"),
});
export const PolicyForm = z
  .strictObject({ allow_password: z.boolean(), allow_magic_link: z.boolean(), allow_sso: z.boolean() })
  .refine((policy) => policy.allow_password || policy.allow_magic_link || policy.allow_sso, {
    message: "allow at least one sign-in method",
    path: ["allow_password"],
  });
export type PolicyForm = z.infer<typeof PolicyForm>;
