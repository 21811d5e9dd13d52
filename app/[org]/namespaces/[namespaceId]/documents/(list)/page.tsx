// /{org}/namespaces/{namespaceId}/documents — the namespace's Documents tab: its files and web pages, newest
// first, a page at a time (GET /documents, the same operation), each with its status, pages and passages; the
// upload area and "Add a URL" for people whose role may write to the namespace (POST /documents). While a
// document is queued or processing, the page reads the list again every two seconds until it is ready or failed.
// A namespace the person may not see is a 404 page (the namespace's layout).
import Link from "next/link";
import { notFound } from "next/navigation";
import { DateTime } from "@/components/date-time";
import { DeleteDocumentButton, RefreshWhilePending } from "@/components/document-actions";
import {
  documentName,
  documentsPath,
  documentTypeLabel,
  DocumentStatusBadge,
  isPending,
} from "@/components/document-parts";
import { DocumentUpload, DocumentUrlForm } from "@/components/document-upload";
import { NamespaceTabs } from "@/components/namespace-tabs";
import { Card, EmptyState, Notice, PageHeader, Pager, Table } from "@/components/ui";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { setting } from "@/lib/config";
import { formFailure } from "@/lib/console/action";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess, orNotFound } from "@/lib/console/session";
import type { DocumentJson } from "@/lib/documents/schemas";
import { InvalidError, NotFoundError } from "@/lib/errors";
import type { Pagination } from "@/lib/http/pagination";
import { NamespaceIdForm } from "@/lib/namespaces/forms";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { operationAllowed, runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const PAGE_SIZE = 20;

export const metadata: Metadata = { title: "Documents" };

export default async function DocumentsPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; namespaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { org: slug, namespaceId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  const id = NamespaceIdForm.safeParse({ namespace_id: namespaceId });
  if (!id.success) notFound();
  const { principal } = access;
  const namespace = await orNotFound(getNamespace(principal, id.data.namespace_id));
  const orgSlug = access.org.slug;
  const base = documentsPath(orgSlug, namespace.id);
  const listing = await readListing(principal, namespace.id, searchParam(await searchParams, "page") ?? "1");
  const writes = operationAllowed(operations.addDocument, principal);
  const pending = listing.kind === "list" && listing.documents.some((document) => isPending(document.status));

  return (
    <div className="space-y-6">
      <div>
        <nav aria-label="Breadcrumb" className="mb-4 text-sm">
          <Link href={`/${orgSlug}/namespaces`} className="text-indigo-600 hover:underline">
            ← Namespaces
          </Link>
        </nav>
        <PageHeader
          title="Documents"
          description={
            <>
              Files and web pages of{" "}
              <span className="font-medium text-slate-800 [overflow-wrap:anywhere]">{namespace.name}</span>: each is
              read page by page and its passages become memories, which recall and ask cite by page.
            </>
          }
        />
        <NamespaceTabs orgSlug={orgSlug} namespaceId={namespace.id} current="documents" />
      </div>

      {writes ? (
        <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
          <Card title="Upload files" description="Each file is sent in turn and read in the background.">
            <DocumentUpload orgSlug={orgSlug} namespaceId={namespace.id} maxBytes={setting("DOCUMENT_MAX_BYTES")} />
          </Card>
          <Card title="Add a URL">
            <DocumentUrlForm orgSlug={orgSlug} namespaceId={namespace.id} />
          </Card>
        </div>
      ) : (
        <Notice>Your role can read this namespace&apos;s documents but not add or delete them.</Notice>
      )}

      {listing.kind === "problem" ? (
        <Notice tone="error">{listing.message}</Notice>
      ) : (
        <DocumentTable
          documents={listing.documents}
          pagination={listing.pagination}
          base={base}
          orgSlug={orgSlug}
          namespaceId={namespace.id}
          writes={writes}
        />
      )}
      <RefreshWhilePending active={pending} />
    </div>
  );
}

type Listing =
  { kind: "list"; documents: DocumentJson[]; pagination: Pagination } | { kind: "problem"; message: string };

/** The page's documents (the GET /documents operation), or why the page number cannot be used. */
async function readListing(principal: MemberPrincipal, namespaceId: string, page: string): Promise<Listing> {
  try {
    const result = await runOperation(operations.listDocuments, principal, {
      query: { namespace_id: namespaceId, page, page_size: String(PAGE_SIZE) },
    });
    return {
      kind: "list",
      documents: result.data,
      pagination: result.pagination ?? { page: 1, pageSize: PAGE_SIZE, total: result.data.length, totalPages: 1 },
    };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError) {
      return { kind: "problem", message: "This page's number is not one: start again from the first page." };
    }
    return { kind: "problem", message: formFailure(error).error };
  }
}

const COLUMNS = ["Document", "Type", "Status", "Pages", "Passages", "Added"];

function DocumentTable({
  documents,
  pagination,
  base,
  orgSlug,
  namespaceId,
  writes,
}: {
  documents: DocumentJson[];
  pagination: Pagination;
  base: string;
  orgSlug: string;
  namespaceId: string;
  writes: boolean;
}) {
  if (documents.length === 0) {
    return pagination.page > 1 ? (
      <EmptyState title="No more documents">
        <Link href={base} className="text-indigo-600 hover:underline">
          Back to the newest
        </Link>
      </EmptyState>
    ) : (
      <EmptyState title="No documents yet">
        Upload a PDF, a Word file, Markdown, HTML, text or an image, or add a URL: its text is read with its pages and
        headings and stored as memories. Applications can add them too, with <code>POST /api/v1/documents</code>.
      </EmptyState>
    );
  }
  const { page, total, totalPages } = pagination;
  const pageHref = (number: number) => (number > 1 ? `${base}?page=${number}` : base);
  return (
    <section aria-label="Documents">
      <Table columns={writes ? [...COLUMNS, "Actions"] : COLUMNS} stacked>
        {documents.map((document) => (
          <tr key={document.id} data-testid="document-row" data-document-id={document.id}>
            <td className="max-w-md px-4 py-2 [overflow-wrap:anywhere]">
              <Link href={`${base}/${document.id}`} className="font-medium text-indigo-700 hover:underline">
                {documentName(document)}
              </Link>
              {document.title && document.filename && (
                <span className="block text-xs text-slate-500">{document.filename}</span>
              )}
              {document.source_url && document.title && (
                <span className="block text-xs text-slate-500">{document.source_url}</span>
              )}
              {document.error && (
                <span className="mt-1 block text-xs text-rose-700" data-testid="document-error">
                  {document.error}
                </span>
              )}
            </td>
            <td className="whitespace-nowrap px-4 py-2 text-slate-700" data-label={COLUMNS[1]}>
              {documentTypeLabel(document.content_type)}
            </td>
            <td className="px-4 py-2" data-label={COLUMNS[2]}>
              <DocumentStatusBadge status={document.status} />
            </td>
            <td className="px-4 py-2 tabular-nums" data-label={COLUMNS[3]} data-testid="document-pages">
              {document.pages ?? "—"}
            </td>
            <td className="px-4 py-2 tabular-nums" data-label={COLUMNS[4]} data-testid="document-passages">
              {isPending(document.status) ? "—" : document.chunk_count.toLocaleString("en-US")}
            </td>
            <td className="whitespace-nowrap px-4 py-2 text-slate-600" data-label={COLUMNS[5]}>
              <DateTime value={document.created_at} />
            </td>
            {writes && (
              <td className="px-4 py-2" data-label="Actions">
                <DeleteDocumentButton
                  compact
                  orgSlug={orgSlug}
                  namespaceId={namespaceId}
                  documentId={document.id}
                  name={documentName(document)}
                />
              </td>
            )}
          </tr>
        ))}
      </Table>
      <Pager
        summary={`Page ${page} of ${Math.max(totalPages, 1)} · ${total.toLocaleString("en-US")} document${
          total === 1 ? "" : "s"
        }`}
        previous={page > 1 ? pageHref(page - 1) : undefined}
        next={page < totalPages ? pageHref(page + 1) : undefined}
      />
    </section>
  );
}
