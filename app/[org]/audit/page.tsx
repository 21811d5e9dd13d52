import { notFound } from "next/navigation";
import { AuditEntries, AuditFilters, type AuditFilterValues } from "@/components/audit-log";
import { EmptyState, Notice, PageHeader, Pager } from "@/components/ui";
import { listApiKeys } from "@/lib/auth/api-keys/list-api-keys";
import { AUDIT_PAGE_SIZE, auditActions, AuditLogQuery, listAuditLog } from "@/lib/audit/audit";
import { memberAccess } from "@/lib/console/session";
import { searchParam as param, type SearchParams } from "@/lib/console/search-params";
import { listMembers } from "@/lib/orgs/members";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditLogPage(props: {
  params: Promise<{ org: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const access = await memberAccess((await props.params).org);
  if (!access) return null;
  // Owners and admins only: for a member the page does not exist.
  if (access.membership.role === "member") notFound();
  const { org } = access;
  const searchParams = await props.searchParams;
  const values: AuditFilterValues & { page?: string } = {
    actor: param(searchParams, "actor"),
    action: param(searchParams, "action"),
    from: param(searchParams, "from"),
    to: param(searchParams, "to"),
    page: param(searchParams, "page"),
  };
  const parsed = AuditLogQuery.safeParse(values);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "page")] ??= issue.message;
  }
  const [members, keys, actions, result] = await Promise.all([
    listMembers(org.id),
    listApiKeys(org.id),
    auditActions(org.id),
    parsed.success ? listAuditLog(org.id, parsed.data) : null,
  ]);
  const actors = [
    { value: "system", label: "Operator (command line)" },
    ...members.map((m) => ({ value: `user:${m.userId}`, label: m.email })),
    ...keys.map((k) => ({ value: `api_key:${k.id}`, label: `API key ${k.name} (${k.display})` })),
  ];
  const basePath = `/${org.slug}/audit`;
  const pageHref = (page: number) => {
    const query = new URLSearchParams();
    for (const name of ["actor", "action", "from", "to"] as const) {
      const value = values[name];
      if (value) query.set(name, value);
    }
    if (page > 1) query.set("page", String(page));
    const text = query.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  const page = parsed.success ? parsed.data.page : 1;
  const filtered = Boolean(values.actor || values.action || values.from || values.to);
  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          "Every change to this organization's keys, namespaces, grants, members and settings, and every " +
          "deletion of memories (memory.forget, with its erasure receipt): who, what, when."
        }
      />
      <AuditFilters basePath={basePath} values={values} errors={errors} actors={actors} actions={actions} />
      {!parsed.success && (
        <Notice tone="error">
          {errors.page ? "This page number does not exist. " : ""}Correct the filters above to see the log.
        </Notice>
      )}
      {result &&
        (result.entries.length === 0 ? (
          <EmptyState
            title={page > 1 ? "No more entries" : filtered ? "Nothing matches these filters" : "No entries yet"}
          >
            {filtered
              ? "Try a wider date range or another person or action."
              : "Creating a key, a namespace or a grant, or changing members or settings, is recorded here."}
          </EmptyState>
        ) : (
          <>
            <AuditEntries entries={result.entries} />
            <Pager
              previous={page > 1 ? pageHref(page - 1) : undefined}
              next={result.hasNext ? pageHref(page + 1) : undefined}
              summary={`Entries ${((page - 1) * AUDIT_PAGE_SIZE + 1).toLocaleString("en-US")}–${(
                (page - 1) * AUDIT_PAGE_SIZE +
                result.entries.length
              ).toLocaleString("en-US")}`}
            />
          </>
        ))}
    </>
  );
}
