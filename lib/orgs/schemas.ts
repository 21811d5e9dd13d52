// Form and request schemas of organizations and users: importable by console forms in the browser.
import { z } from "zod";
import { identifier, name, text } from "@/lib/validation/strings";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const Email = z.email("must be a valid email address").max(254).transform((email) => email.toLowerCase());
export const Password = text()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
export const OrganizationName = name({ max: 255 }).min(1, "must not be empty");
/** A user's display name. */
export const PersonName = name({ max: 255 });
export const RoleName = z.enum(["owner", "admin", "member"], "must be owner, admin or member");

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
export const MemberForm = z.strictObject({ user_id: identifier({ min: 1 }) });
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
