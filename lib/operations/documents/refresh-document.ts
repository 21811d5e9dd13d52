import { documentJson } from "@/lib/documents/document-json";
import { refreshDocument } from "@/lib/documents/refresh-document";
import { DocumentIdParams, DocumentSchema } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const refreshDocumentOperation = operation({
  http: {
    method: "POST",
    path: "/documents/{id}/refresh",
    tag: "Documents",
    summary: "Fetch a URL's document again and replace its passages",
    errors: [404, 409],
  },
  permission: "NAMESPACE_WRITE",
  params: DocumentIdParams,
  response: DocumentSchema,
  successStatus: 202,
  activity: "refresh_document",
  run: async ({ principal, params, activity }) => documentJson(await refreshDocument(principal, params.id, activity)),
});
