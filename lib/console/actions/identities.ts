"use server";
// The identities pages' mutation: forgetting an identity (owners and admins; the domain refuses anyone
// who may manage no namespace, too).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runConsoleAction } from "@/lib/console/action";
import { forgetIdentity } from "@/lib/memory/forget/identities";
import { IdentityId } from "@/lib/memory/common/schemas";

const ADMINS = ["owner", "admin"] as const;

const ForgetIdentityForm = z.strictObject({ identity_id: IdentityId });

/** Deletes the identity's memories in every namespace the person manages; answers how many went. */
export async function forgetIdentityAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ADMINS, input: ForgetIdentityForm }, form, async (context, input) => {
    const result = await forgetIdentity(context.principal, input.identity_id);
    revalidatePath(`/${context.orgSlug}/identities`, "layout");
    return { deleted: result.deleted, namespaces: result.namespaces.length };
  });
}
