"use server";
// The sign-in page's action; the sign-in itself is next-auth's (lib/console/auth.ts).
import { SsoStartForm } from "@/lib/auth/schemas";
import { findSsoOrganization, ssoProviderId } from "@/lib/auth/sso";
import type { ActionResult } from "@/lib/console/action";
import { describeError } from "@/lib/http/errors";

/** "Continue with SSO": the provider of the organization a work email or slug belongs to. */
export async function startSso(form: unknown): Promise<ActionResult<{ providerId: string; orgName: string }>> {
  const parsed = SsoStartForm.safeParse(form);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0].message };
  try {
    const org = await findSsoOrganization(parsed.data.email_or_slug);
    return { ok: true, data: { providerId: ssoProviderId(org.id), orgName: org.name } };
  } catch (error) {
    const refusal = describeError(error);
    const unknown = refusal.code === "NOT_FOUND";
    return {
      ok: false,
      error: unknown ? "No organization uses single sign-on for that email or slug." : refusal.message,
    };
  }
}
