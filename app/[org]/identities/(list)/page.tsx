import { EmptyState, Notice, PageHeader, Pager, Table } from "@/components/ui";
import Link from "next/link";
import { DateTime } from "@/components/date-time";
import { IdentityLink } from "@/components/identity-parts";
import { IdentitiesQuery, listIdentities, RECENT_DAYS } from "@/lib/activity/identities";
import { peopleOfIdentities } from "@/lib/activity/identity-people";
import { memberAccess } from "@/lib/console/session";
import { issueDetails } from "@/lib/errors";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Identities" };

export default async function IdentitiesPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  const slug = access.org.slug;
  const raw = await searchParams;
  const parsed = IdentitiesQuery.safeParse({ q: searchParam(raw, "q"), page: searchParam(raw, "page") });
  const header = (
    <PageHeader
      title="Identities"
      description={
        access.membership.role === "member"
          ? "The people your apps remember things about, in the namespaces granted to you."
          : "The people your apps remember things about, across every namespace of the organization."
      }
    />
  );
  if (!parsed.success) {
    const problems = issueDetails(parsed.error.issues).map((d) => `${d.field}: ${d.message}`);
    return (
      <>
        {header}
        <Notice tone="error">This search cannot be run: {problems.join("; ")}.</Notice>
        <p className="mt-4 text-sm">
          <Link className="text-indigo-600 hover:underline" href={`/${slug}/identities`}>
            Show every identity
          </Link>
        </p>
      </>
    );
  }
  const query = parsed.data;
  const list = await listIdentities(access.principal, query);
  const people = await peopleOfIdentities(
    access.org.id,
    list.items.map((identity) => identity.identityId),
  );
  const href = (page: number) => {
    const search = new URLSearchParams();
    if (query.q) search.set("q", query.q);
    if (page > 1) search.set("page", String(page));
    const text = search.toString();
    return `/${slug}/identities${text ? `?${text}` : ""}`;
  };
  const firstShown = (query.page - 1) * list.pageSize + 1;
  const columns = ["Identity", "Memories", `Operations (${RECENT_DAYS} days)`, "Last activity"];
  return (
    <>
      {header}
      <form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-2">
        <label className="min-w-0 flex-1 text-sm sm:max-w-sm">
          <span className="font-medium text-slate-700">Identity id starts with</span>
          <input
            name="q"
            defaultValue={query.q ?? ""}
            maxLength={255}
            placeholder="e.g. user-42"
            className={
              "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm " +
              "focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
            }
          />
        </label>
        <button
          type="submit"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
        >
          Search
        </button>
        {query.q && (
          <Link href={`/${slug}/identities`} className="px-2 py-2 text-sm text-slate-600 hover:underline">
            Clear
          </Link>
        )}
      </form>
      {list.items.length === 0 && query.page > 1 ? (
        <EmptyState title="Past the last page">
          There are fewer identities than that.{" "}
          <Link className="text-indigo-600 hover:underline" href={href(1)}>
            Back to the first page
          </Link>
        </EmptyState>
      ) : list.items.length === 0 ? (
        query.q ? (
          <EmptyState title="No identity matches">
            No identity id starts with “{query.q}” in the namespaces you can see.
          </EmptyState>
        ) : (
          <EmptyState title="No identities yet">
            An identity is the <code className="rounded bg-slate-100 px-1">identity_id</code> your app sends with{" "}
            <code className="rounded bg-slate-100 px-1">remember</code> and{" "}
            <code className="rounded bg-slate-100 px-1">recall</code>: usually one user of your app. Once it sends one,
            the identity shows here with its memories and activity, and you can erase everything about it.
          </EmptyState>
        )
      ) : (
        <>
          <Table columns={columns} stacked>
            {list.items.map((identity) => (
              <tr key={identity.identityId}>
                <td className="max-w-xs px-4 py-2">
                  <IdentityLink
                    orgSlug={slug}
                    identityId={identity.identityId}
                    person={people.get(identity.identityId)}
                  />
                </td>
                <td className="px-4 py-2 tabular-nums" data-label={columns[1]}>
                  {identity.memories.toLocaleString("en-US")}
                </td>
                <td className="px-4 py-2 tabular-nums" data-label={columns[2]}>
                  {identity.operationsLast7Days.toLocaleString("en-US")}
                </td>
                <td className="whitespace-nowrap px-4 py-2 text-slate-600" data-label={columns[3]}>
                  <DateTime value={identity.lastActivityAt} empty="no activity" />
                </td>
              </tr>
            ))}
          </Table>
          <Pager
            previous={query.page > 1 ? href(query.page - 1) : undefined}
            next={list.hasNext ? href(query.page + 1) : undefined}
            summary={
              `Identities ${firstShown.toLocaleString("en-US")}–` +
              (firstShown + list.items.length - 1).toLocaleString("en-US")
            }
          />
        </>
      )}
    </>
  );
}
