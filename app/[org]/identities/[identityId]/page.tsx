import { notFound } from "next/navigation";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { IdentityEntities } from "@/components/entity-parts";
import { IdentityProfile } from "@/components/identity-profile";
import { ForgetIdentityButton } from "@/components/forget-identity-button";
import { identityOfSegment, identityPath, UtcTime } from "@/components/identity-parts";
import { OperationsChart } from "@/components/operations-chart";
import { Card, EmptyState, Notice, PageHeader, Pager, Select, Table } from "@/components/ui";
import { ACTIVITY_OPERATIONS } from "@/lib/activity/activity";
import { identityActivity, IdentityActivityQuery, identitySummary } from "@/lib/activity/identities";
import { peopleOfIdentities } from "@/lib/activity/identity-people";
import { dailyOperations } from "@/lib/activity/queries";
import { memberAccess } from "@/lib/console/session";
import { issueDetails } from "@/lib/errors";
import { identityMemories } from "@/lib/memory/forget/identities";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const ACTIVITY_COLUMNS = ["Operation", "Namespace", "API key", "Status", "Latency", "Time"];
/** The identity's entities shown, the most mentioned first. */
const TOP_ENTITIES = 20;

export const metadata: Metadata = { title: "Identity" };

export default async function IdentityPage({
  params,
  searchParams,
}: {
  params: Promise<{ org: string; identityId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { org, identityId: segment } = await params;
  const access = await memberAccess(org);
  if (!access) return null;
  const identityId = identityOfSegment(segment);
  if (identityId === undefined) notFound();
  const slug = access.org.slug;
  const raw = await searchParams;
  const filters = IdentityActivityQuery.safeParse({
    operation: searchParam(raw, "operation"),
    status: searchParam(raw, "status"),
    page: searchParam(raw, "page"),
  });
  const [summary, days, memories, activity, people, about] = await Promise.all([
    identitySummary(access.principal, identityId),
    dailyOperations(access.principal, { identityId }),
    identityMemories(access.principal, identityId),
    filters.success ? identityActivity(access.principal, identityId, filters.data) : null,
    peopleOfIdentities(access.org.id, [identityId]),
    // GET /identities/{id}/entities' operation: its top entities, over the memories this person may see.
    runOperation(operations.identityEntities, access.principal, {
      params: { id: identityId },
      query: { limit: String(TOP_ENTITIES) },
    }),
  ]);
  // The profile of one namespace: the one asked for, or the one of the newest memory.
  const namespaces = [
    ...new Map(memories.memories.map((m) => [m.namespaceId, { id: m.namespaceId, name: m.namespaceName }])).values(),
  ];
  const asked = searchParam(raw, "profile");
  const profileNamespace = namespaces.find((n) => n.id === asked) ?? namespaces[0];
  const profile = profileNamespace
    ? await runOperation(operations.identityProfile, access.principal, {
        params: { id: identityId },
        query: { namespace_id: profileNamespace.id },
      })
    : null;
  const person = people.get(identityId);
  const canForget = access.membership.role !== "member";
  const base = identityPath(slug, identityId);
  const href = (page: number) => {
    const search = new URLSearchParams();
    if (filters.success) {
      if (filters.data.operation) search.set("operation", filters.data.operation);
      if (filters.data.status) search.set("status", filters.data.status);
    }
    if (page > 1) search.set("page", String(page));
    const text = search.toString();
    return `${base}${text ? `?${text}` : ""}#activity`;
  };
  const filtered = filters.success && (filters.data.operation || filters.data.status);
  return (
    <>
      <PageHeader
        title="Identity"
        description={
          <>
            {person && (
              <span className="block text-base font-medium text-slate-900 [overflow-wrap:anywhere]">
                {person.name ? `${person.name} · ${person.email}` : person.email}
              </span>
            )}
            <span className="flex items-center gap-2">
              <span
                data-testid="identity-id"
                className={`font-mono [overflow-wrap:anywhere] ${person ? "text-xs text-slate-500" : "text-slate-900"}`}
              >
                {identityId}
              </span>
              <CopyButton text={identityId} label="Copy the identity id" />
            </span>
            {summary.memories.toLocaleString("en-US")} {summary.memories === 1 ? "memory" : "memories"} in{" "}
            {summary.namespaces} {summary.namespaces === 1 ? "namespace" : "namespaces"}
            {access.membership.role === "member" ? " granted to you" : ""} · last activity{" "}
            <UtcTime value={summary.lastActivityAt} empty="none" />
          </>
        }
        actions={
          canForget ? (
            <ForgetIdentityButton orgSlug={slug} identityId={identityId} memoryCount={summary.memories} />
          ) : undefined
        }
      />
      <p className="-mt-4 mb-6 text-sm">
        <Link href={`/${slug}/identities`} className="text-indigo-600 hover:underline">
          ← All identities
        </Link>
      </p>
      <div className="space-y-6">
        {profile && profileNamespace && (
          <IdentityProfile
            profile={profile.data}
            namespaceName={profileNamespace.name}
            namespaces={namespaces}
            profileHref={(namespaceId) => `${base}?profile=${encodeURIComponent(namespaceId)}`}
            memoryHref={(memoryId) => `/${slug}/namespaces/${profileNamespace.id}/memories/${memoryId}`}
          />
        )}
        <IdentityEntities orgSlug={slug} entities={about.data.entities} />
        <Card title="Activity">
          <OperationsChart title="Operations per day, last 30 days" days={days} />
        </Card>

        <section id="activity" className="space-y-3">
          <h2 className="text-base font-semibold">Recent activity</h2>
          <form method="get" action={`${base}#activity`} className="flex flex-wrap items-end gap-2 text-sm">
            <label className="w-40">
              <span className="font-medium text-slate-700">Operation</span>
              <Select
                className="mt-1"
                name="operation"
                defaultValue={filters.success ? (filters.data.operation ?? "") : ""}
              >
                <option value="">Every operation</option>
                {ACTIVITY_OPERATIONS.map((operation) => (
                  <option key={operation} value={operation}>
                    {operation}
                  </option>
                ))}
              </Select>
            </label>
            <label className="w-40">
              <span className="font-medium text-slate-700">Status</span>
              <Select className="mt-1" name="status" defaultValue={filters.success ? (filters.data.status ?? "") : ""}>
                <option value="">Every status</option>
                <option value="success">Succeeded</option>
                <option value="error">Failed</option>
                {filters.success && /^\d+$/.test(filters.data.status ?? "") && (
                  <option value={filters.data.status}>{filters.data.status}</option>
                )}
              </Select>
            </label>
            <button
              type="submit"
              className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium shadow-sm hover:bg-slate-50"
            >
              Filter
            </button>
            {filtered && (
              <Link href={`${base}#activity`} className="px-2 py-2 text-slate-600 hover:underline">
                Clear filters
              </Link>
            )}
          </form>
          {!filters.success ? (
            <Notice tone="error">
              These filters cannot be used:{" "}
              {issueDetails(filters.error.issues)
                .map((d) => `${d.field}: ${d.message}`)
                .join("; ")}
              .
            </Notice>
          ) : activity!.items.length === 0 ? (
            <EmptyState title={filtered || activity!.page > 1 ? "No activity matches" : "No activity yet"}>
              {filtered || activity!.page > 1
                ? "Nothing this identity did matches these filters."
                : "When an app calls remember, recall, ask or forget with this identity_id, each call shows here."}
            </EmptyState>
          ) : (
            <>
              <Table columns={ACTIVITY_COLUMNS} stacked>
                {activity!.items.map((row) => (
                  <tr key={row.id}>
                    <td className="px-4 py-2 font-mono text-xs">{row.operation}</td>
                    <td className="max-w-[12rem] truncate px-4 py-2" data-label={ACTIVITY_COLUMNS[1]}>
                      {row.namespaceId && row.namespaceName ? (
                        <Link
                          href={`/${slug}/namespaces/${row.namespaceId}`}
                          className="text-indigo-700 hover:underline"
                          title={row.namespaceName}
                        >
                          {row.namespaceName}
                        </Link>
                      ) : (
                        <span className="text-slate-500">—</span>
                      )}
                    </td>
                    <td
                      className="max-w-[10rem] truncate px-4 py-2"
                      title={row.keyName ?? undefined}
                      data-label={ACTIVITY_COLUMNS[2]}
                    >
                      {row.keyName ?? <span className="text-slate-500">deleted key</span>}
                    </td>
                    <td className="px-4 py-2" data-label={ACTIVITY_COLUMNS[3]}>
                      <span
                        className={`rounded px-1.5 py-0.5 text-xs font-medium tabular-nums ${
                          row.status < 400 ? "bg-emerald-50 text-emerald-800" : "bg-rose-50 text-rose-800"
                        }`}
                      >
                        {row.status}
                      </span>
                    </td>
                    <td className="whitespace-nowrap px-4 py-2 tabular-nums" data-label={ACTIVITY_COLUMNS[4]}>
                      {row.latencyMs} ms
                    </td>
                    <td className="whitespace-nowrap px-4 py-2 text-slate-600" data-label={ACTIVITY_COLUMNS[5]}>
                      <UtcTime value={row.createdAt} />
                    </td>
                  </tr>
                ))}
              </Table>
              <Pager
                previous={activity!.page > 1 ? href(activity!.page - 1) : undefined}
                next={activity!.hasNext ? href(activity!.page + 1) : undefined}
                summary={`Page ${activity!.page}`}
              />
            </>
          )}
        </section>

        <section className="space-y-3">
          <h2 className="text-base font-semibold">Memories</h2>
          {memories.total === 0 ? (
            <EmptyState title="No memories">
              No memory about this identity is stored in the namespaces you can see.
            </EmptyState>
          ) : (
            <>
              {memories.total > memories.memories.length && (
                <p className="text-sm text-slate-600">
                  The {memories.memories.length} newest of {memories.total.toLocaleString("en-US")} memories.
                </p>
              )}
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
                {memories.memories.map((memory) => (
                  <li key={memory.id} className="px-4 py-3 text-sm">
                    <Link
                      href={`/${slug}/namespaces/${memory.namespaceId}/memories/${memory.id}`}
                      className="block break-words text-slate-900 hover:text-indigo-700"
                    >
                      {memory.preview}
                    </Link>
                    <p className="mt-1 text-xs text-slate-500">
                      <span className="wrap-anywhere">{memory.namespaceName}</span>
                      {" · "}
                      <UtcTime value={memory.createdAt} />
                      {" · "}
                      <span className="font-mono">{memory.id}</span>
                    </p>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </>
  );
}
