// /{org}/namespaces/{namespaceId}/documents/{documentId} — one document: its status (and why it failed), type,
// size, pages and passages (GET /documents/{id}), the text read from it by page and heading (GET
// /documents/{id}/text), the passages stored as memories, a download of the original, and, for people who may
// write here, Refresh (a URL's document) and Delete. A long PDF is shown ten pages at a time. While it is queued
// or processing, the page reads it again every two seconds. Not in this namespace, or not visible to the
// person: a 404 page (the layout).
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DateTime } from "@/components/date-time";
import { DeleteDocumentButton, RefreshDocumentButton, RefreshWhilePending } from "@/components/document-actions";
import {
  DocumentBreadcrumb,
  documentName,
  documentsPath,
  documentTypeLabel,
  DocumentStatusBadge,
  formatBytes,
  isPending,
} from "@/components/document-parts";
import { Card, EmptyState, Notice, PageHeader, Pager } from "@/components/ui";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { ConflictError } from "@/lib/errors";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { documentPassages, inDocumentOrder, type DocumentPassage } from "@/lib/documents/document-passages";
import { DocumentIdParams } from "@/lib/documents/schemas";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { operationAllowed, runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const SECONDARY_LINK =
  "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm " +
  "hover:bg-slate-50";

/** Pages of a PDF shown at once, text and passages: a 2,000-page file is read a window at a time. */
const PAGES_PER_VIEW = 10;
/** Of a document without pages (Markdown, HTML, Word), the first blocks and passages shown. */
const BLOCKS_SHOWN = 500;
const PASSAGES_SHOWN = 200;
/** A bound on a window's passages all the same (ten pages make a few dozen). */
const PASSAGES_PER_VIEW_MAX = 2_000;

type Block = { page: number | null; section: string[]; text: string };

/**
 * The document's text blocks, by GET /documents/{id}/text's operation; none while it has no text (queued,
 * processing, or failed before any reading: that operation's 409), so the page shows its status and error.
 */
async function textBlocks(principal: MemberPrincipal, id: string): Promise<Block[]> {
  try {
    return (await runOperation(operations.documentText, principal, { params: { id } })).data.blocks;
  } catch (error) {
    if (error instanceof ConflictError) return [];
    throw error;
  }
}

export const metadata: Metadata = { title: "Document" };

export default async function DocumentPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; namespaceId: string; documentId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { org: slug, namespaceId, documentId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  if (!DocumentIdParams.safeParse({ id: documentId }).success) notFound();
  const { principal } = access;
  // GET /documents/{id}'s and /text's operations: their permission check and response schemas.
  const { data: document } = await orNotFound(
    runOperation(operations.getDocument, principal, { params: { id: documentId } }),
  );
  if (document.namespace_id !== namespaceId) notFound();
  const [namespace, text] = await Promise.all([
    orNotFound(getNamespace(principal, document.namespace_id)),
    orNotFound(textBlocks(principal, document.id)),
  ]);
  const view = pageWindow(document.pages, searchParam(await searchParams, "from"));
  const blocks = view
    ? text.filter((block) => block.page !== null && block.page >= view.from && block.page <= view.to)
    : text.slice(0, BLOCKS_SHOWN);
  const stored = await orNotFound(
    documentPassages(
      principal,
      document.id,
      view ? { pages: view, limit: PASSAGES_PER_VIEW_MAX } : { limit: PASSAGES_SHOWN },
    ),
  );
  const passages = inDocumentOrder(stored.passages, blocks);
  // Only part of a long PDF is on the page: what is shown says which part.
  const windowed = view !== null && view.pages > PAGES_PER_VIEW;
  const pagesShown = view && `pages ${view.from} to ${view.to}`;

  const orgSlug = access.org.slug;
  const base = documentsPath(orgSlug, namespace.id);
  const name = documentName(document);
  const writes = operationAllowed(operations.deleteDocument, principal);
  const pending = isPending(document.status);
  const memories = `/${orgSlug}/namespaces/${namespace.id}/memories`;
  const ref = { orgSlug, namespaceId: namespace.id, documentId: document.id };

  return (
    <div className="space-y-6">
      <div>
        <DocumentBreadcrumb orgSlug={orgSlug} namespace={namespace} documentName={name} />
        <PageHeader
          title={name}
          description={<span className="break-all font-mono text-xs">{document.id}</span>}
          actions={
            <>
              {document.size_bytes !== null && (
                // A plain link: the original is a download (the route answers it as an attachment), not a page.
                <a href={`${base}/${document.id}/original`} className={SECONDARY_LINK}>
                  Download original
                </a>
              )}
              {writes && document.source_url && <RefreshDocumentButton {...ref} />}
              {writes && <DeleteDocumentButton {...ref} name={name} afterDelete={base} />}
            </>
          }
        />
      </div>

      {document.status === "failed" && (
        <Notice tone="error">
          <span className="font-medium">It could not be read.</span> {document.error}
        </Notice>
      )}
      {pending && (
        <Notice>
          {document.status === "queued" ? "It is waiting its turn to be read" : "It is being read now"}: this page
          updates by itself.
          {document.error && <span className="mt-1 block">{document.error}</span>}
        </Notice>
      )}

      <Card title="Details">
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]" data-testid="document-details">
          <Detail term="Status">
            <DocumentStatusBadge status={document.status} />
          </Detail>
          <Detail term="Type">{documentTypeLabel(document.content_type)}</Detail>
          <Detail term="Size">{formatBytes(document.size_bytes)}</Detail>
          <Detail term="Pages">
            {document.pages ?? <span className="text-slate-500">none (not a paged format)</span>}
          </Detail>
          <Detail term="Passages">
            <span data-testid="document-passage-count">{document.chunk_count.toLocaleString("en-US")}</span>
            <span className="text-slate-500"> stored as memories</span>
          </Detail>
          {document.filename && <Detail term="File name">{document.filename}</Detail>}
          {document.source_url && (
            <Detail term="Source URL">
              <a
                href={document.source_url}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="break-all text-indigo-600 hover:underline"
              >
                {document.source_url}
              </a>
            </Detail>
          )}
          <Detail term="Added">
            <DateTime value={document.created_at} />
          </Detail>
          <Detail term="Processed">
            <DateTime value={document.processed_at} empty="not yet" />
          </Detail>
        </dl>
      </Card>

      <Card
        title="Text"
        description={
          windowed
            ? `As read from the file, by page and heading: ${pagesShown} of ${view.pages}.`
            : `As read from the file, by ${view ? "page and " : ""}heading.`
        }
      >
        <DocumentText blocks={blocks} status={document.status} />
        {!view && text.length > BLOCKS_SHOWN && (
          <p className="mt-3 text-xs text-slate-500">
            The first {BLOCKS_SHOWN} of {text.length.toLocaleString("en-US")} paragraphs are shown;{" "}
            <code>GET /api/v1/documents/{"{id}"}/text</code> has them all.
          </p>
        )}
        {windowed && <PageWindowPager view={view} href={(from) => `${base}/${document.id}?from=${from}`} />}
      </Card>

      <Card
        title={`Passages (${stored.total.toLocaleString("en-US")}${windowed ? `, ${pagesShown}` : ""})`}
        description="How the text was cut for search: each passage is a memory, its page and section in its metadata."
      >
        <PassageList passages={passages} memoryHref={(id) => `${memories}/${id}`} />
        {!view && stored.total > passages.length && (
          <p className="mt-3 text-xs text-slate-500">
            {passages.length} of {stored.total.toLocaleString("en-US")} passages are shown; the memory explorer lists
            every one.
          </p>
        )}
      </Card>
      <RefreshWhilePending active={pending} />
    </div>
  );
}

interface PageWindow {
  from: number;
  to: number;
  pages: number;
}

/** The pages shown of a paged document: ten from `from` (the first page of a window, else the first ten). */
function pageWindow(pages: number | null, from: string | undefined): PageWindow | null {
  if (!pages) return null;
  const asked = Number(from);
  const start = Number.isInteger(asked) && asked >= 1 && asked <= pages ? asked : 1;
  return { from: start, to: Math.min(start + PAGES_PER_VIEW - 1, pages), pages };
}

function PageWindowPager({ view, href }: { view: PageWindow; href: (from: number) => string }) {
  return (
    <Pager
      labels={["← Earlier pages", "Later pages →"]}
      summary={`Pages ${view.from}–${view.to} of ${view.pages}`}
      previous={view.from > 1 ? href(Math.max(view.from - PAGES_PER_VIEW, 1)) : undefined}
      next={view.to < view.pages ? href(view.to + 1) : undefined}
    />
  );
}

const PAGE_HEADING = "mb-2 border-b border-slate-100 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500";

/** The text in reading order: a heading for each page, and the section path wherever it changes. */
function DocumentText({ blocks, status }: { blocks: Block[]; status: string }) {
  if (blocks.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {status === "ready" ? "No text on these pages." : "Its text appears here once it has been read."}
      </p>
    );
  }
  const pages = groupBy(blocks, (block) => block.page);
  return (
    <div className="space-y-6" data-testid="document-text">
      {pages.map(({ key: page, items }) => (
        <section
          key={page ?? "all"}
          aria-label={page === null ? undefined : `Page ${page}`}
          data-testid="document-text-page"
          data-page={page ?? undefined}
        >
          {page !== null && <h3 className={PAGE_HEADING}>Page {page}</h3>}
          <div className="space-y-2 text-sm text-slate-800">
            {groupBy(items, (block) => block.section.join(" › ")).map(({ key: section, items: paragraphs }, index) => (
              <div key={`${section}-${index}`} className="space-y-2">
                {section && <h4 className="pt-1 font-semibold text-slate-900 [overflow-wrap:anywhere]">{section}</h4>}
                {paragraphs.map((block, position) => (
                  <p key={position} className="whitespace-pre-line break-words">
                    {block.text}
                  </p>
                ))}
              </div>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** Runs of consecutive items with the same key, in their order (a section may come back after another). */
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): { key: K; items: T[] }[] {
  const runs: { key: K; items: T[] }[] = [];
  for (const item of items) {
    const key = keyOf(item);
    const last = runs[runs.length - 1];
    if (last && last.key === key) last.items.push(item);
    else runs.push({ key, items: [item] });
  }
  return runs;
}

function PassageList({ passages, memoryHref }: { passages: DocumentPassage[]; memoryHref: (id: string) => string }) {
  if (passages.length === 0) {
    return (
      <EmptyState title="No passages here">
        Passages are stored once the document is read; those of these pages may also have been deleted.
      </EmptyState>
    );
  }
  return (
    <ol className="space-y-3" data-testid="document-passages">
      {passages.map((passage) => (
        <li key={passage.memoryId} className="rounded-md border border-slate-200 p-3" data-testid="document-passage">
          <div className="mb-1 flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-500">
            <span className="min-w-0 [overflow-wrap:anywhere]">
              {[passage.page !== null && `Page ${passage.page}`, passage.section].filter(Boolean).join(" · ") ||
                "No page or section"}
            </span>
            <Link href={memoryHref(passage.memoryId)} className="text-indigo-600 hover:underline">
              Open memory
            </Link>
          </div>
          <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{passage.content}</p>
        </li>
      ))}
    </ol>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}
