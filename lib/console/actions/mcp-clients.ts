"use server";
// The console's side of MCP clients' OAuth: answering a consent request, and revoking a connected client.
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { KeyIdForm } from "@/lib/auth/schemas";
import { formFailure, parseForm, runConsoleAction, type ActionResult } from "@/lib/console/action";
import { consentMember } from "@/lib/console/consent";
import { approveConnection, denyConnection, revokeConnection } from "@/lib/oauth/connections";

const ConsentAnswer = z.strictObject({
  uid: z.string().regex(/^[\w-]{1,100}$/),
  decision: z.enum(["approve", "deny"]),
  access: z
    .array(z.enum(["read", "write"]))
    .max(2)
    .default([]),
});

/**
 * The person's answer on the consent page: where the browser goes next (back to the authorization request,
 * which answers the client). The session, membership and sign-in policy are read again here, and the
 * browser's cookies prove it is the one that started the request.
 */
export async function answerConsent(form: unknown): Promise<ActionResult<{ redirectTo: string }>> {
  const parsed = parseForm(ConsentAnswer, form);
  if (!parsed.ok) return parsed;
  const { uid, decision, access } = parsed.data;
  try {
    const cookieHeader = (await cookies()).toString();
    if (decision === "deny") return { ok: true, data: { redirectTo: await denyConnection(uid, cookieHeader) } };
    const consent = await consentMember(uid);
    if ("problem" in consent) return { ok: false, error: consent.problem };
    const redirectTo = await approveConnection({ uid, member: consent.member, access, cookieHeader });
    return { ok: true, data: { redirectTo } };
  } catch (error) {
    return formFailure(error);
  }
}

/** Ends a connected MCP client: members their own, owners and admins any of the organization's. */
export async function revokeMcpClient(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: KeyIdForm }, form, async (context, input) => {
    await revokeConnection(context.principal, input.key_id);
    revalidatePath(`/${context.orgSlug}/keys`);
    return null;
  });
}
