// The Documents tab's upload (POST /documents as the signed-in person), for the upload route
// (app/[org]/namespaces/[namespaceId]/documents/upload, which spools the browser's file as it arrives): in one
// of the organization's transfer turns (lib/http/transfer-slots.ts), so the console's uploads share the
// organization's turns with its API's.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/permissions";
import { asFormFields, runConsoleAction, type ActionResult } from "@/lib/console/action";
import { withTransferSlot } from "@/lib/http/transfer-slots";
import { UploadedFile } from "@/lib/http/uploaded-file";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

const UploadInput = z.strictObject({
  namespace_id: identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" }),
  file: z.instanceof(UploadedFile, { error: "choose a file" }),
});

/**
 * Adds `file` to the namespace as a document of the organization named by `orgSlug`, for the signed-in member
 * (the role and the operation's own checks apply): `{id, status}`, or the refusal as the form shows it.
 */
export async function uploadDocumentFile(
  orgSlug: string,
  namespaceId: string,
  file: UploadedFile,
  /** The caller already holds one of the organization's turns (the upload route takes it before reading). */
  { turnHeld = false } = {},
): Promise<ActionResult<{ id: string; status: string }>> {
  const raw = { namespace_id: namespaceId, file };
  const result = await runConsoleAction(orgSlug, { roles: ROLES, input: UploadInput }, raw, async (context, input) => {
    const add = async () => {
      const body = { namespace_id: input.namespace_id, file: input.file };
      const { data } = await runOperation(operations.addDocument, context.principal, { body: async () => body });
      revalidatePath(`/${context.orgSlug}/namespaces/${data.namespace_id}/documents`, "layout");
      return { id: data.id, status: data.status };
    };
    return turnHeld ? add() : withTransferSlot(context.principal.orgId, add);
  });
  return asFormFields(result);
}
