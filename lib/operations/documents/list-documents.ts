import { Page } from "@/lib/http/pagination";
import { documentJson } from "@/lib/documents/document-json";
import { listDocuments } from "@/lib/documents/list-documents";
import { DocumentSchema, ListDocumentsQuery } from "@/lib/documents/schemas";
import { operation } from "../operation";

export const listDocumentsOperation = operation({
  http: {
    method: "GET",
    path: "/documents",
    tag: "Documents",
    summary: "List a namespace's documents, newest first",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  query: ListDocumentsQuery,
  response: DocumentSchema,
  paginated: true,
  activity: "list_documents",
  async run({ principal, query, activity }) {
    const page = await listDocuments(principal, query, activity);
    return new Page(page.items.map(documentJson), page.total, page.query);
  },
});
