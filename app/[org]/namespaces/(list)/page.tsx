// /{org}/namespaces — the namespaces the signed-in person may see, with their counts; search and create.
import Link from "next/link";
import { CreateNamespaceButton } from "@/components/namespace-create-dialog";
import { grantableKeys } from "@/lib/namespaces/overview";
import { DeleteNamespaceButton } from "@/components/namespace-delete-button";
import { DateTime } from "@/components/date-time";
import { EmptyState, Notice, PageHeader, Pager, Table } from "@/components/ui";
import { memberAccess } from "@/lib/console/session";
import { NamespaceSearch } from "@/lib/namespaces/forms";
import { listNamespacesWithStats } from "@/lib/namespaces/overview";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import type { Metadata } from "next";

const PAGE_SIZE = 50;
const MAX_PAGE = 100_000;
const COLUMNS = ["Name", "External reference", "Memories", "Grants", "Last activity", "Created", ""];

export const metadata: Metadata = { title: "Namespaces" };

export default async function NamespacesPage(props: {
  params: Promise<{ org: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ org: slug }, search] = await Promise.all([props.params, props.searchParams]);
  const access = await memberAccess(slug);
  if (!access) return null;
  const parsedQuery = NamespaceSearch.safeParse(searchParam(search, "q") ?? "");
  const query = parsedQuery.success ? parsedQuery.data : "";
  // A page number typed in the URL: anything odd is the first page, and none is past any real list.
  const page = Math.min(Math.max(1, Math.floor(Number(searchParam(search, "page")) || 1)), MAX_PAGE);
  const { items, total } = await listNamespacesWithStats(
    access.principal,
    { page, page_size: PAGE_SIZE },
    { nameContains: query || undefined },
  );
  const base = `/${access.org.slug}/namespaces`;
  const manages = access.membership.role !== "member";
  const href = (to: number) => `${base}?${new URLSearchParams({ ...(query && { q: query }), page: String(to) })}`;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const create = manages ? (
    <CreateNamespaceButton
      orgSlug={access.org.slug}
      keys={await grantableKeys(access.org.id)}
      initiallyOpen={searchParam(search, "create") !== undefined}
    />
  ) : undefined;

  if (total === 0 && !query && page === 1) {
    return (
      <div>
        <PageHeader title="Namespaces" />
        <EmptyState title="No namespaces yet" action={create}>
          <p>
            A namespace is a separate memory space: an app or an assistant remembers into it and recalls from it. Each
            one has its own access grants (which API keys and members may use it) and its own MCP endpoint for AI
            clients such as Claude Code, Cursor or VS Code.
          </p>
          {!manages && (
            <p className="mt-2">Ask an owner or admin of this organization to create one or grant you one.</p>
          )}
        </EmptyState>
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Namespaces"
        description={
          manages
            ? "Every namespace of the organization: separate memory spaces, each with its own grants and MCP endpoint."
            : "The namespaces granted to you."
        }
        actions={create}
      />
      <form method="get" action={base} role="search" className="mb-4 flex max-w-md gap-2">
        <label className="sr-only" htmlFor="namespace-search">
          Search by name
        </label>
        <input
          id="namespace-search"
          name="q"
          type="search"
          defaultValue={query}
          placeholder="Search by name"
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm"
        />
        <button
          type="submit"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm hover:bg-slate-50"
        >
          Search
        </button>
      </form>
      {!parsedQuery.success && (
        <div className="mb-4">
          <Notice tone="error">The search text {parsedQuery.error.issues[0]?.message}.</Notice>
        </div>
      )}
      {items.length === 0 ? (
        <EmptyState title={query ? `No namespace matches “${query}”` : "Nothing on this page"}>
          <Link href={base} className="text-indigo-600 hover:underline">
            Show every namespace
          </Link>
        </EmptyState>
      ) : (
        <Table columns={COLUMNS} stacked>
          {items.map((namespace) => (
            <tr key={namespace.id} data-testid="namespace-row">
              <td className="px-4 py-2">
                <Link href={`${base}/${namespace.id}`} className="font-medium text-indigo-700 hover:underline">
                  {namespace.name}
                </Link>
                {namespace.description && (
                  <p className="max-w-xs truncate text-xs text-slate-500">{namespace.description}</p>
                )}
              </td>
              <td className="px-4 py-2 font-mono text-xs" data-label={COLUMNS[1]}>
                {namespace.externalReferenceId ?? "—"}
              </td>
              <td className="px-4 py-2 tabular-nums" data-label={COLUMNS[2]}>
                {namespace.memoryCount.toLocaleString("en-US")}
              </td>
              <td className="px-4 py-2 tabular-nums" data-label={COLUMNS[3]}>
                {namespace.grantCount.toLocaleString("en-US")}
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-xs" data-label={COLUMNS[4]}>
                <DateTime value={namespace.lastActivityAt} empty="none" relative />
              </td>
              <td className="whitespace-nowrap px-4 py-2 text-xs" data-label={COLUMNS[5]}>
                <DateTime value={namespace.createdAt} />
              </td>
              <td className="px-4 py-2 text-right">
                {manages && (
                  <DeleteNamespaceButton
                    orgSlug={access.org.slug}
                    namespace={{ id: namespace.id, name: namespace.name, memoryCount: namespace.memoryCount }}
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pager
        previous={page > 1 ? href(page - 1) : undefined}
        next={page < pages ? href(page + 1) : undefined}
        summary={
          `${total.toLocaleString("en-US")} namespace${total === 1 ? "" : "s"}` +
          `${query ? ` matching “${query}”` : ""} · page ${page} of ${pages}`
        }
      />
    </div>
  );
}
