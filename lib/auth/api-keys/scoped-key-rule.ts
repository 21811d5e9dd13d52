// Which keys cannot exist because of their scopes: one rule, checked by the server when a key is created or
// edited (key-policy.ts) and by the console's key dialogs before they send anything. Types only: safe in
// the browser.
import type { Permission } from "../permissions";

/**
 * A key with scopes is refused every namespace-wide operation (lib/auth/principal), which is all that
 * NAMESPACE_MANAGE allows: such a key would carry a permission it can never use.
 */
export function scopesForbidManage(
  permissions: readonly Permission[],
  scopes: Readonly<Record<string, string>> | undefined,
): boolean {
  return Boolean(scopes && Object.keys(scopes).length > 0 && permissions.includes("NAMESPACE_MANAGE"));
}
