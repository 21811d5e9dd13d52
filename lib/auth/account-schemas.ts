// Schemas of accounts (a user's email, password and name) and of the account page's forms: importable by
// console forms in the browser.
import { z } from "zod";
import { identifier, name, text } from "@/lib/validation/strings";

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

export const Email = z
  .email("must be a valid email address")
  .max(254)
  .transform((email) => email.toLowerCase());
export const Password = text()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
/** A user's display name. */
export const PersonName = name({ max: 255 });

export const PasswordChangeForm = z.strictObject({
  current_password: text({ max: 256 }).min(1, "enter your current password"),
  new_password: Password,
});
export type PasswordChangeForm = z.infer<typeof PasswordChangeForm>;

/** A first password, for an account that has none (no current password to give). */
export const PasswordSetForm = z.strictObject({ new_password: Password });
export type PasswordSetForm = z.infer<typeof PasswordSetForm>;

export const SessionIdForm = z.strictObject({ session_id: identifier({ min: 1, max: 100 }) });
