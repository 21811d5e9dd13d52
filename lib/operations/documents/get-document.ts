import { documentJson } from "@/lib/documents/document-json";
import { getDocument } from "@/lib/documents/get-document";
import { DocumentIdParams, DocumentSchema } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const getDocumentOperation = operation({
  http: {
    method: "GET",
    path: "/documents/{id}",
    tag: "Documents",
    summary: "Get a document: its status, pages, passages and error",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: DocumentIdParams,
  response: DocumentSchema,
  activity: "get_document",
  run: async ({ principal, params, activity }) => documentJson(await getDocument(principal, params.id, activity)),
});
