// Documents (files and web pages) whose passages become memories with their page and section.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { z } from "zod";
import { Page } from "@/lib/http/pagination";
import { createDocument } from "@/lib/documents/create-document";
import { deleteDocument } from "@/lib/documents/delete-document";
import { documentContent } from "@/lib/documents/document-content";
import { documentJson } from "@/lib/documents/document-json";
import { documentText } from "@/lib/documents/document-text";
import { getDocument } from "@/lib/documents/get-document";
import { listDocuments } from "@/lib/documents/list-documents";
import { refreshDocument } from "@/lib/documents/refresh-document";
import {
  CreateDocumentBody,
  DeletedDocumentSchema,
  DocumentIdParams,
  DocumentSchema,
  DocumentTextSchema,
  ListDocumentsQuery,
} from "@/lib/documents/schemas";
import { setting } from "@/lib/config";
import { operation } from "../operation";

export const documentsOperations = {
  // Documents (files and web pages) whose passages become memories with their page and section.
  addDocument: operation({
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
  }),
  listDocuments: operation({
    permission: "NAMESPACE_READ",
    query: ListDocumentsQuery,
    response: DocumentSchema,
    paginated: true,
    activity: "list_documents",
    async run({ principal, query, activity }) {
      const page = await listDocuments(principal, query, activity);
      return new Page(page.items.map(documentJson), page.total, page.query);
    },
  }),
  getDocument: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: DocumentSchema,
    activity: "get_document",
    run: async ({ principal, params, activity }) => documentJson(await getDocument(principal, params.id, activity)),
  }),
  documentText: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: DocumentTextSchema,
    activity: "get_document",
    run: ({ principal, params, activity }) => documentText(principal, params.id, activity),
  }),
  documentContent: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: z.unknown(),
    download: true,
    activity: "document_content",
    run: ({ principal, params, activity }) => documentContent(principal, params.id, activity),
  }),
  refreshDocument: operation({
    permission: "NAMESPACE_WRITE",
    params: DocumentIdParams,
    response: DocumentSchema,
    successStatus: 202,
    activity: "refresh_document",
    run: async ({ principal, params, activity }) => documentJson(await refreshDocument(principal, params.id, activity)),
  }),
  deleteDocument: operation({
    permission: "NAMESPACE_WRITE",
    params: DocumentIdParams,
    response: DeletedDocumentSchema,
    activity: "delete_document",
    run: ({ principal, params, activity }) => deleteDocument(principal, params.id, activity),
  }),
};
