// Form and request schemas of organizations and users: importable by console forms in the browser.
import { z } from "zod";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const Email = z.email("must be a valid email address").max(254).transform((email) => email.toLowerCase());
export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
export const OrganizationName = z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters");
export const RoleName = z.enum(["owner", "admin", "member"], "must be owner, admin or member");

export const SignUpForm = z.strictObject({ email: Email, password: Password, organization: OrganizationName });
export const InviteForm = z.strictObject({ email: Email, role: RoleName });
export const RoleForm = z.strictObject({ user_id: z.string().min(1), role: RoleName });
export const MemberForm = z.strictObject({ user_id: z.string().min(1) });
export const PolicyForm = z
  .strictObject({ allow_password: z.boolean(), allow_magic_link: z.boolean(), allow_sso: z.boolean() })
  .refine((policy) => policy.allow_password || policy.allow_magic_link || policy.allow_sso, {
    message: "allow at least one sign-in method",
    path: ["allow_password"],
  });
export type PolicyForm = z.infer<typeof PolicyForm>;
