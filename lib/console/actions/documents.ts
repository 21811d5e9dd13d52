"use server";
// The Documents tab's mutations: adding a file or a URL, refreshing a URL's document, deleting one. Each runs
// the API's own operation (POST /documents, POST /documents/{id}/refresh, DELETE /documents/{id}) with the
// signed-in person as principal, so the permission (namespace write), the checks (type, size, the URL's
// destination) and the refusals are the API's. Ids come from the browser and are never trusted: the namespace
// is resolved by the operation within the person's organization and namespaces, a document is looked up the
// same way and must be in the namespace the page names.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { ROLES } from "@/lib/auth/permissions";
import { asFormFields, runConsoleAction } from "@/lib/console/action";
import { getDocument } from "@/lib/documents/get-document";
import { notFound } from "@/lib/errors";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

const Id = identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" });
const Text = z.string({ error: "must be text" });

// The URL's length and destination are the operation's to judge (its own messages); here only its shape.
const UrlForm = z.strictObject({ namespace_id: Id, url: Text });
const DocumentForm = z.strictObject({ namespace_id: Id, document_id: Id });

const documentsPath = (orgSlug: string, namespaceId: string) => `/${orgSlug}/namespaces/${namespaceId}/documents`;

/** "Add a URL": a web page or a file on the web, fetched and read by the document's processing. */
export async function addDocumentUrl(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(orgSlug, { roles: ROLES, input: UrlForm }, form, async (context, input) => {
    const body = { namespace_id: input.namespace_id, url: input.url.trim() };
    const { data } = await runOperation(operations.addDocument, context.principal, { body: async () => body });
    revalidatePath(documentsPath(context.orgSlug, data.namespace_id), "layout");
    return { id: data.id, status: data.status };
  });
  return asFormFields(result);
}

export async function refreshDocument(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: DocumentForm }, form, async (context, input) => {
    await assertInNamespace(context.principal, input);
    const { data } = await runOperation(operations.refreshDocument, context.principal, {
      params: { id: input.document_id },
    });
    revalidatePath(documentsPath(context.orgSlug, input.namespace_id), "layout");
    return { id: data.id, status: data.status };
  });
}

/** Deletes the document with its original, its text and the memories of its passages. */
export async function deleteDocument(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: DocumentForm }, form, async (context, input) => {
    await assertInNamespace(context.principal, input);
    const { data } = await runOperation(operations.deleteDocument, context.principal, {
      params: { id: input.document_id },
    });
    revalidatePath(documentsPath(context.orgSlug, input.namespace_id), "layout");
    return { memoriesDeleted: data.memories_deleted };
  });
}

/** The document must be in the namespace the page names (the operation alone would find it in any). */
async function assertInNamespace(principal: Principal, input: z.output<typeof DocumentForm>) {
  const document = await getDocument(principal, input.document_id);
  if (document.namespaceId !== input.namespace_id) throw notFound(`Document ${input.document_id}`);
}
