// /{org}/namespaces/{namespaceId}/entities — the namespace's Entities tab: the people, organizations, places,
// works, events and dates its memories name, most mentioned first, searched by name and filtered by kind, a
// page at a time. The same listing as GET /entities (listEntities), so counts cover only the memories the
// person may see. A namespace the person may not see is a 404 page.
import Link from "next/link";
import { notFound } from "next/navigation";
import { DateTime } from "@/components/date-time";
import { KIND_STYLES } from "@/components/entity-kinds";
import { entityPath, KindBadge } from "@/components/entity-parts";
import { NamespaceTabs } from "@/components/namespace-tabs";
import { EmptyState, Input, Notice, PageHeader, Pager, Select, Table } from "@/components/ui";
import { formFailure } from "@/lib/console/action";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { ENTITY_KINDS } from "@/lib/memory/common/entity-kinds";
import { ENTITY_SEARCH_MAX, listEntities, type EntityPage } from "@/lib/memory/entities/list-entities";
import { NamespaceIdForm } from "@/lib/namespaces/forms";
import { getNamespace } from "@/lib/namespaces/namespaces";
import type { Metadata } from "next";

const PAGE_SIZE = 25;
const COLUMNS = ["Name", "Kind", "Memories", "Last mentioned"];

interface Filters {
  q: string;
  kind: string;
  cursor: string;
}

function entitiesHref(base: string, filters: Partial<Filters>): string {
  const search = new URLSearchParams();
  for (const name of ["q", "kind", "cursor"] as const) if (filters[name]) search.set(name, filters[name]);
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

export const metadata: Metadata = { title: "Entities" };

export default async function EntitiesPage({
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
  const raw = await searchParams;
  const filters: Filters = {
    q: searchParam(raw, "q") ?? "",
    kind: searchParam(raw, "kind") ?? "",
    cursor: searchParam(raw, "cursor") ?? "",
  };
  const orgSlug = access.org.slug;
  const base = `/${orgSlug}/namespaces/${namespace.id}/entities`;
  const listing = await readListing(principal, namespace.id, filters);
  const filtered = Boolean(filters.q || filters.kind);

  return (
    <div className="space-y-6">
      <div>
        <nav aria-label="Breadcrumb" className="mb-4 text-sm">
          <Link href={`/${orgSlug}/namespaces`} className="text-indigo-600 hover:underline">
            ← Namespaces
          </Link>
        </nav>
        <PageHeader
          title="Entities"
          description={
            <>
              The people, organizations, places, works, events and dates named in the memories of{" "}
              <span className="font-medium text-slate-800 [overflow-wrap:anywhere]">{namespace.name}</span>, most
              mentioned first.
            </>
          }
        />
        <NamespaceTabs orgSlug={orgSlug} namespaceId={namespace.id} current="entities" />
      </div>

      <form
        method="get"
        action={base}
        role="search"
        aria-label="Entities"
        className="flex flex-wrap items-end gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      >
        <label className="min-w-0 flex-[1_1_14rem]">
          <span className="font-medium text-slate-700">Name contains</span>
          <Input
            className="mt-1"
            name="q"
            type="search"
            defaultValue={filters.q}
            maxLength={ENTITY_SEARCH_MAX}
            placeholder="Caroline, Paris, 2023…"
            autoComplete="off"
          />
        </label>
        <label className="w-44">
          <span className="font-medium text-slate-700">Kind</span>
          <Select className="mt-1" name="kind" defaultValue={filters.kind}>
            <option value="">Every kind</option>
            {ENTITY_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_STYLES[kind].plural}
              </option>
            ))}
          </Select>
        </label>
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white shadow-sm hover:bg-indigo-700"
        >
          Search
        </button>
        {filtered && (
          <Link href={base} className="px-2 py-2 text-slate-600 hover:underline">
            Clear
          </Link>
        )}
      </form>

      {listing.kind === "problem" ? (
        <Notice tone="error">
          <ul className="space-y-1">
            {listing.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Notice>
      ) : (
        <EntityTable
          page={listing.page}
          base={base}
          orgSlug={orgSlug}
          namespaceId={namespace.id}
          filters={filters}
          filtered={filtered}
        />
      )}
    </div>
  );
}

type Listing = { kind: "list"; page: EntityPage } | { kind: "problem"; messages: string[] };

/** The page's entities (listEntities, as GET /entities), or why the filters cannot be used. */
async function readListing(
  principal: Parameters<typeof listEntities>[0],
  namespaceId: string,
  filters: Filters,
): Promise<Listing> {
  try {
    const page = await listEntities(principal, {
      namespaceId,
      q: filters.q || undefined,
      kind: filters.kind || undefined,
      cursor: filters.cursor || undefined,
      limit: PAGE_SIZE,
    });
    return { kind: "list", page };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError && error.details?.length) {
      const names: Record<string, string> = { q: "Name contains", kind: "Kind", cursor: "Page" };
      return {
        kind: "problem",
        messages: error.details.map((detail) => {
          const field = detail.field.replace(/^query\./, "").split(".")[0];
          return field === "cursor"
            ? "This page's link is out of date or was altered: start again from the first page."
            : `${names[field] ?? field}: ${detail.message}`;
        }),
      };
    }
    return { kind: "problem", messages: [formFailure(error).error] };
  }
}

function EntityTable({
  page,
  base,
  orgSlug,
  namespaceId,
  filters,
  filtered,
}: {
  page: EntityPage;
  base: string;
  orgSlug: string;
  namespaceId: string;
  filters: Filters;
  filtered: boolean;
}) {
  if (page.items.length === 0) {
    if (page.page > 1) {
      return (
        <EmptyState title="No more entities">
          <Link href={entitiesHref(base, { ...filters, cursor: "" })} className="text-indigo-600 hover:underline">
            Back to the first page
          </Link>
        </EmptyState>
      );
    }
    return filtered ? (
      <EmptyState title="No entity matches">
        No entity you can see matches these filters.{" "}
        <Link href={base} className="text-indigo-600 hover:underline">
          Clear them
        </Link>
        .
      </EmptyState>
    ) : (
      <EmptyState title="No entities yet">
        Entities appear as memories are remembered: the people, organizations, places, works, events and dates each
        memory names are found when it is stored, with no model and nothing sent anywhere.
      </EmptyState>
    );
  }
  const pages = Math.max(Math.ceil(page.total / PAGE_SIZE), 1);
  return (
    <section aria-label="Entities">
      <Table columns={COLUMNS} stacked>
        {page.items.map((entity) => (
          <tr key={entity.id} data-testid="entity-row">
            <td className="px-4 py-2 [overflow-wrap:anywhere]">
              <Link
                href={entityPath(orgSlug, namespaceId, entity.id)}
                className="font-medium text-indigo-700 hover:underline"
              >
                {entity.name}
              </Link>
              {entity.aliases.length > 0 && (
                <span className="block text-xs text-slate-500">also {entity.aliases.join(", ")}</span>
              )}
            </td>
            <td className="px-4 py-2" data-label={COLUMNS[1]}>
              <KindBadge kind={entity.kind} />
            </td>
            <td className="px-4 py-2 tabular-nums" data-label={COLUMNS[2]}>
              {entity.memory_count.toLocaleString("en-US")}
            </td>
            <td className="whitespace-nowrap px-4 py-2 text-slate-600" data-label={COLUMNS[3]}>
              <DateTime value={entity.last_mentioned_at} />
            </td>
          </tr>
        ))}
      </Table>
      <Pager
        keyset
        labels={["← First page", "Next page →"]}
        summary={`Page ${page.page} of ${pages} · ${page.total.toLocaleString("en-US")} entit${
          page.total === 1 ? "y" : "ies"
        }`}
        previous={page.page > 1 ? entitiesHref(base, { ...filters, cursor: "" }) : undefined}
        next={page.nextCursor ? entitiesHref(base, { ...filters, cursor: page.nextCursor }) : undefined}
      />
    </section>
  );
}
