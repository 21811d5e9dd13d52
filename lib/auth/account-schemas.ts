// Form schemas of the account page: importable by console forms in the browser.
import { z } from "zod";
import { Password } from "@/lib/orgs/schemas";
import { identifier, text } from "@/lib/validation/strings";

export const PasswordChangeForm = z.strictObject({
  current_password: text({ max: 256 }).min(1, "enter your current password"),
  new_password: Password,
});
export type PasswordChangeForm = z.infer<typeof PasswordChangeForm>;

/** A first password, for an account that has none (no current password to give). */
export const PasswordSetForm = z.strictObject({ new_password: Password });
export type PasswordSetForm = z.infer<typeof PasswordSetForm>;

export const SessionIdForm = z.strictObject({ session_id: identifier({ min: 1, max: 100 }) });
