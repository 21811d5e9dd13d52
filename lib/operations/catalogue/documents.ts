// Documents (files and web pages) whose passages become memories with their page and section.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { addDocumentOperation } from "../documents/add-document";
import { listDocumentsOperation } from "../documents/list-documents";
import { getDocumentOperation } from "../documents/get-document";
import { documentTextOperation } from "../documents/document-text";
import { documentContentOperation } from "../documents/document-content";
import { refreshDocumentOperation } from "../documents/refresh-document";
import { deleteDocumentOperation } from "../documents/delete-document";

export const documentsOperations = {
  // Documents (files and web pages) whose passages become memories with their page and section.
  addDocument: addDocumentOperation,
  listDocuments: listDocumentsOperation,
  getDocument: getDocumentOperation,
  documentText: documentTextOperation,
  documentContent: documentContentOperation,
  refreshDocument: refreshDocumentOperation,
  deleteDocument: deleteDocumentOperation,
};
