import { z } from "zod";
import { documentContent } from "@/lib/documents/document-content";
import { DocumentIdParams } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const documentContentOperation = operation({
  http: {
    method: "GET",
    path: "/documents/{id}/content",
    tag: "Documents",
    summary: "The document's original bytes, as a download",
    errors: [404, 409],
  },
  permission: "NAMESPACE_READ",
  params: DocumentIdParams,
  response: z.unknown(),
  download: true,
  activity: "document_content",
  run: ({ principal, params, activity }) => documentContent(principal, params.id, activity),
});
