"use server";
// The memory explorer's mutation: deleting one memory. The namespace and memory ids come from the
// browser and are never trusted: deleteMemory looks them up within the person's organization and the
// namespaces they may see (another organization's or an ungranted one's ids are simply not found).
// Deleting a memory is forgetting it: the forget operation's permission is checked, by the runner's check.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { runConsoleAction } from "@/lib/console/action";
import { deleteMemory as deleteMemoryOf } from "@/lib/memory/delete-memory";
import { operations } from "@/lib/operations/catalogue";
import { assertOperationAllowed } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

const Id = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
const DeleteMemoryForm = z.strictObject({ namespace_id: Id, memory_id: Id });

export async function deleteMemory(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: DeleteMemoryForm }, form, async (context, input) => {
    assertOperationAllowed(operations.forget, context.principal);
    const result = await deleteMemoryOf(context.principal, input.namespace_id, input.memory_id);
    revalidatePath(`/${context.orgSlug}/namespaces/${input.namespace_id}/memories`);
    return result;
  });
}
