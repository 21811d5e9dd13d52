import { createDocument } from "@/lib/documents/create-document";
import { documentJson } from "@/lib/documents/document-json";
import { CreateDocumentBody, DocumentSchema } from "@/lib/documents/schemas";
import { setting } from "@/lib/config";
import { operation } from "../operation";

export const addDocumentOperation = operation({
  http: {
    method: "POST",
    path: "/documents",
    tag: "Documents",
    summary:
      "Add a document (a multipart `file`, a `url` or inline `content`): 202 with it queued; its passages become " +
      "memories with their page and section once it is `ready`",
    errors: [404, 413, 415],
    idempotent: true,
  },
  permission: "NAMESPACE_WRITE",
  body: CreateDocumentBody,
  response: DocumentSchema,
  successStatus: 202,
  upload: { maxFileBytes: () => setting("DOCUMENT_MAX_BYTES"), jsonFields: ["scopes", "metadata"] },
  activity: "add_document",
  async run({ principal, body, activity }) {
    const document = await createDocument(principal, body, activity);
    activity.details = { document_id: document.id };
    return documentJson(document);
  },
});
