import { deleteDocument } from "@/lib/documents/delete-document";
import { DeletedDocumentSchema, DocumentIdParams } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const deleteDocumentOperation = operation({
  http: {
    method: "DELETE",
    path: "/documents/{id}",
    tag: "Documents",
    summary: "Delete a document with its original and the memories of its passages",
    errors: [404],
  },
  permission: "NAMESPACE_WRITE",
  params: DocumentIdParams,
  response: DeletedDocumentSchema,
  activity: "delete_document",
  run: ({ principal, params, activity }) => deleteDocument(principal, params.id, activity),
});
