import { documentText } from "@/lib/documents/document-text";
import { DocumentIdParams, DocumentTextSchema } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const documentTextOperation = operation({
  http: {
    method: "GET",
    path: "/documents/{id}/text",
    tag: "Documents",
    summary:
      "The text extracted from a document, by page and heading; 409 while it has none yet (queued, processing, failed)",
    errors: [404, 409],
  },
  permission: "NAMESPACE_READ",
  params: DocumentIdParams,
  response: DocumentTextSchema,
  activity: "get_document",
  run: ({ principal, params, activity }) => documentText(principal, params.id, activity),
});
