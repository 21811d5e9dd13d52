// /{org}/namespaces/{namespaceId}/memories — the memory explorer: the namespace's memories newest first, a
// page at a time, filtered like GET /memories (the same operation runs), or searched like POST /recall.
// With `?session=…` the page is that conversation's transcript, its turns in order (GET /memories?session_id=).
// A namespace the person may not see is a 404 page, and nothing of its memories is read.
import Link from "next/link";
import { notFound } from "next/navigation";
import {
  ConversationGroup,
  ConversationTranscript,
  ExplorerBreadcrumb,
  ExplorerFilterForm,
  MatchCard,
  MemoryCard,
  type MatchView,
  type MemoryView,
} from "@/components/memory-explorer";
import { NamespaceTabs } from "@/components/namespace-tabs";
import { EmptyState, Notice, PageHeader, Pager } from "@/components/ui";
import { formFailure } from "@/lib/console/action";
import { explorerFilters, explorerHref, filterMessages, listingInput } from "@/lib/console/memory-filters";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { listMemories } from "@/lib/memory/read/list";
import { memoryJson } from "@/lib/memory/common/schemas";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";
import type { Metadata } from "next";

const NamespaceId = identifier({ min: 1, max: 255 });
const SEARCH_TOP_K = 20;
const PAGE_SIZE = 20;
/** A transcript's page: a conversation reads better in long stretches. */
const TRANSCRIPT_PAGE_SIZE = 100;
/** The explorer counts up to this many matches (an exact count of 100,000 would cost more than the page). */
const COUNT_UP_TO = 1_000;

interface ListPosition {
  page: number;
  total: number;
  totalIsAtLeast: boolean;
  nextCursor: string | null;
}

type Listing =
  | { kind: "list"; memories: MemoryView[]; position: ListPosition }
  | { kind: "search"; matches: MatchView[] }
  | { kind: "problem"; messages: string[] };

export const metadata: Metadata = { title: "Memories" };

export default async function MemoryExplorerPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; namespaceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { org: slug, namespaceId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  const id = NamespaceId.safeParse(namespaceId);
  if (!id.success) notFound();
  const { principal } = access;
  const namespace = await orNotFound(getNamespace(principal, id.data));
  const orgSlug = access.org.slug;
  const base = `/${orgSlug}/namespaces/${namespace.id}/memories`;
  const documentHref = (documentId: string) => `/${orgSlug}/namespaces/${namespace.id}/documents/${documentId}`;
  const filters = explorerFilters(await searchParams);
  const listing = await readListing(principal, namespace.id, filters);
  const transcript = Boolean(filters.session && !filters.q);

  return (
    <div className="space-y-6">
      <div>
        <ExplorerBreadcrumb orgSlug={orgSlug} namespace={namespace} sessionId={filters.session || undefined} />
        {filters.session ? (
          <PageHeader
            title="Conversation"
            description={
              <>
                The turns of <span className="break-all font-mono text-slate-800">{filters.session}</span> in{" "}
                <span className="font-medium text-slate-800">{namespace.name}</span>, in the order they were said.
              </>
            }
          />
        ) : (
          <PageHeader
            title="Memories"
            description={
              <>
                What is stored in <span className="font-medium text-slate-800">{namespace.name}</span>, newest first.
                Filters and search follow the same rules as the API.
              </>
            }
          />
        )}
        <NamespaceTabs orgSlug={orgSlug} namespaceId={namespace.id} current="memories" />
      </div>
      <ExplorerFilterForm action={base} filters={filters} />
      {listing.kind === "problem" && (
        <Notice tone="error">
          <ul className="space-y-1">
            {listing.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Notice>
      )}
      {listing.kind === "search" && <SearchResults matches={listing.matches} base={base} query={filters.q} />}
      {listing.kind === "list" && transcript && (
        <Transcript memories={listing.memories} position={listing.position} base={base} filters={filters} />
      )}
      {listing.kind === "list" && !transcript && (
        <MemoryList
          memories={listing.memories}
          position={listing.position}
          base={base}
          documentHref={documentHref}
          filters={filters}
          filtered={Boolean(filters.identity || filters.scopes || filters.metadata || filters.session)}
        />
      )}
    </div>
  );
}

/** The page's data: one GET /memories or POST /recall operation with the filters; bad input a message. */
async function readListing(
  principal: Parameters<typeof runOperation>[1],
  namespaceId: string,
  filters: ReturnType<typeof explorerFilters>,
): Promise<Listing> {
  const input = listingInput(namespaceId, filters, filters.session && !filters.q ? TRANSCRIPT_PAGE_SIZE : PAGE_SIZE);
  if (!input.ok) return { kind: "problem", messages: input.messages };
  try {
    if (filters.q) {
      const { parsed } = input;
      const body = {
        namespace_id: namespaceId,
        query: filters.q,
        top_k: SEARCH_TOP_K,
        ...(parsed.identity_id !== undefined && { identity_id: parsed.identity_id }),
        ...(parsed.session_id !== undefined && { session_id: parsed.session_id }),
        ...(parsed.scope && { scopes: parsed.scope }),
        ...(parsed.metadata && { metadata: parsed.metadata }),
      };
      const result = await runOperation(operations.recall, principal, { body: async () => body });
      return { kind: "search", matches: result.data };
    }
    // The API's listing function with its parsed query; the count stops at COUNT_UP_TO.
    const page = await listMemories(principal, input.parsed, {}, { countUpTo: COUNT_UP_TO });
    return { kind: "list", memories: page.items.map(memoryJson), position: page };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError && error.details?.length) {
      return { kind: "problem", messages: filterMessages(error.details) };
    }
    // A refusal keeps its message; anything else (the embedding model still loading) a generic one.
    return { kind: "problem", messages: [formFailure(error).error] };
  }
}

function MemoryList({
  memories,
  position,
  base,
  documentHref,
  filters,
  filtered,
}: {
  memories: MemoryView[];
  position: ListPosition;
  base: string;
  /** Where a document's passage links its document. */
  documentHref: (documentId: string) => string;
  filters: ReturnType<typeof explorerFilters>;
  filtered: boolean;
}) {
  if (memories.length === 0) {
    return filtered ? (
      <EmptyState title="No memories match these filters">
        Try fewer filters, or{" "}
        <Link href={base} className="text-indigo-600 hover:underline">
          clear them
        </Link>
        .
      </EmptyState>
    ) : position.page > 1 ? (
      <EmptyState title="No more memories">
        <Link href={base} className="text-indigo-600 hover:underline">
          Back to the newest
        </Link>
      </EmptyState>
    ) : (
      <EmptyState title="No memories yet">
        Memories appear here once an application stores them with <code>POST /api/v1/remember</code> or an agent calls
        the MCP <code>remember</code> tool with a key granted this namespace.
      </EmptyState>
    );
  }
  const { page, total, totalIsAtLeast, nextCursor } = position;
  const count = `${total.toLocaleString("en-US")}${totalIsAtLeast ? "+" : ""} memor${total === 1 ? "y" : "ies"}`;
  const pages = totalIsAtLeast ? "" : ` of ${Math.max(Math.ceil(total / PAGE_SIZE), 1)}`;
  return (
    <section aria-label="Memories">
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
        {runsOfConversations(memories).map((run) =>
          run.sessionId === null ? (
            <MemoryCard
              key={run.memories[0].id}
              memory={run.memories[0]}
              href={`${base}/${run.memories[0].id}`}
              documentHref={documentHref}
            />
          ) : (
            <ConversationGroup
              key={`${run.sessionId}:${run.memories[0].id}`}
              sessionId={run.sessionId}
              href={explorerHref(base, { session: run.sessionId })}
            >
              {run.memories.map((memory) => (
                <MemoryCard key={memory.id} memory={memory} href={`${base}/${memory.id}`} documentHref={documentHref} />
              ))}
            </ConversationGroup>
          ),
        )}
      </ul>
      <Pager
        keyset
        summary={`Page ${page}${pages} · ${count}`}
        previous={page > 1 ? explorerHref(base, { ...filters, cursor: "" }) : undefined}
        next={nextCursor ? explorerHref(base, { ...filters, cursor: nextCursor }) : undefined}
      />
    </section>
  );
}

/** The page's memories as runs: each plain memory alone, consecutive turns of one conversation together. */
function runsOfConversations(memories: MemoryView[]) {
  const runs: { sessionId: string | null; memories: MemoryView[] }[] = [];
  for (const memory of memories) {
    const last = runs[runs.length - 1];
    if (memory.session_id !== null && last?.sessionId === memory.session_id) last.memories.push(memory);
    else runs.push({ sessionId: memory.session_id, memories: [memory] });
  }
  return runs;
}

/** One conversation, its turns in order (a page of them at a time), as a chat transcript. */
function Transcript({
  memories,
  position,
  base,
  filters,
}: {
  memories: MemoryView[];
  position: ListPosition;
  base: string;
  filters: ReturnType<typeof explorerFilters>;
}) {
  if (memories.length === 0) {
    return (
      <EmptyState title={position.page > 1 ? "No more turns" : "No turns in this conversation"}>
        {position.page > 1 ? "The conversation ends here. " : "Nothing you may see was said in it, or it was deleted. "}
        <Link href={base} className="text-indigo-600 hover:underline">
          Back to every memory
        </Link>
      </EmptyState>
    );
  }
  const { page, total, totalIsAtLeast, nextCursor } = position;
  const count = `${total.toLocaleString("en-US")}${totalIsAtLeast ? "+" : ""} turn${total === 1 ? "" : "s"}`;
  return (
    <section aria-label="Conversation">
      <ConversationTranscript turns={memories} memoryHref={(id) => `${base}/${id}`} />
      <Pager
        keyset
        labels={["← First turns", "Later turns →"]}
        summary={`Page ${page} · ${count}`}
        previous={page > 1 ? explorerHref(base, { ...filters, cursor: "" }) : undefined}
        next={nextCursor ? explorerHref(base, { ...filters, cursor: nextCursor }) : undefined}
      />
    </section>
  );
}

function SearchResults({ matches, base, query }: { matches: MatchView[]; base: string; query: string }) {
  if (matches.length === 0) {
    return (
      <EmptyState title="Nothing found">
        No memory matches “{query}” with these filters. Recall ranks by words and meaning; try other words.
      </EmptyState>
    );
  }
  return (
    <section aria-label="Search results">
      <p className="mb-2 text-sm text-slate-600">
        {matches.length} best match{matches.length === 1 ? "" : "es"} for “{query}”, best first (score 0 to 1).
      </p>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
        {matches.map((match) => (
          <MatchCard key={match.chunk_id} match={match} href={`${base}/${match.memory_id}`} />
        ))}
      </ul>
    </section>
  );
}
