// /{org}/webhooks/{webhookId} — one endpoint: what it receives, whether it is enabled (and why not), its
// buttons (test, enable or disable, rotate the secret, delete), and its delivery log, newest first, a page at a
// time, filtered by status: each delivery's status, the receiver's answer and latency, attempts, last error,
// next attempt, its payload as sent, and "Redeliver". The data comes from the API's own operations (GET
// /webhooks/{id}, GET /webhooks/{id}/deliveries), run as the signed-in person; another organization's endpoint
// is a 404 page (the layout).
import { apiKeyNames } from "@/lib/auth/api-keys/key-names";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Card, EmptyState, Notice, PageHeader, Pager } from "@/components/ui";
import { WebhookActions } from "@/components/webhook-actions";
import { WebhookDeliveries } from "@/components/webhook-deliveries";
import {
  CircuitNotice,
  DisabledReason,
  EndpointStatusBadge,
  EndpointSummary,
  webhooksPath,
} from "@/components/webhook-parts";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { formFailure } from "@/lib/console/action";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { InvalidError, NotFoundError } from "@/lib/errors";
import { DELIVERY_STATUSES, WebhookIdParams } from "@/lib/events/webhooks/schemas";
import { namespacesForMember } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const PAGE_SIZE = 25;

export const metadata: Metadata = { title: "Webhook endpoint" };

export default async function WebhookPage(props: {
  params: Promise<{ org: string; webhookId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ org: slug, webhookId }, search] = await Promise.all([props.params, props.searchParams]);
  const access = await memberAccess(slug);
  if (!access) return null;
  const { membership, principal, org } = access;
  if (!ROLE_PERMISSIONS[membership.role].includes("WEBHOOK_MANAGE")) notFound();
  if (!WebhookIdParams.safeParse({ id: webhookId }).success) notFound();
  const status = searchParam(search, "status");
  const page = searchParam(search, "page") ?? "1";

  const [{ data: endpoint }, namespaces, log] = await Promise.all([
    orNotFound(runOperation(operations.getWebhook, principal, { params: { id: webhookId } })),
    namespacesForMember(org.id, membership.userId, membership.role),
    readLog(principal, webhookId, status, page),
  ]);
  const namespaceNames = Object.fromEntries(namespaces.map((namespace) => [namespace.id, namespace.name]));
  const keyNames = await apiKeyNames(
    org.id,
    [endpoint].flatMap((endpoint) => endpoint.created_by_api_key_id ?? []),
  );
  const base = webhooksPath(org.slug, endpoint.id);
  const href = (query: { status?: string; page?: number }) => {
    const params = new URLSearchParams();
    if (query.status) params.set("status", query.status);
    if (query.page && query.page > 1) params.set("page", String(query.page));
    const text = params.toString();
    return text ? `${base}?${text}` : base;
  };

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={webhooksPath(org.slug)} className="text-indigo-600 hover:underline">
          ← Webhooks
        </Link>
      </nav>
      <PageHeader
        title="Webhook endpoint"
        description={
          <>
            <span className="font-mono text-sm text-slate-800 [overflow-wrap:anywhere]" data-testid="webhook-url">
              {endpoint.url}
            </span>
            {endpoint.description && (
              <span className="mt-1 block [overflow-wrap:anywhere]">{endpoint.description}</span>
            )}
          </>
        }
      />

      <Card title="Endpoint" actions={<EndpointStatusBadge enabled={endpoint.enabled} />}>
        <div className="space-y-4">
          <DisabledReason endpoint={endpoint} />
          <CircuitNotice endpoint={endpoint} />
          <EndpointSummary endpoint={endpoint} namespaceNames={namespaceNames} keyNames={keyNames} />
          <div className="border-t border-slate-100 pt-3">
            <WebhookActions
              orgSlug={org.slug}
              endpoint={{ id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled }}
              afterDelete={webhooksPath(org.slug)}
            />
          </div>
        </div>
      </Card>

      <section aria-labelledby="deliveries-heading" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="deliveries-heading" className="text-lg font-semibold">
              Delivery log
            </h2>
            <p className="text-sm text-slate-600">
              Every event sent to this endpoint, newest first, with its receiver&apos;s last answer. Kept as long as the
              events are.
            </p>
          </div>
          <nav aria-label="Delivery status" className="text-sm">
            <ul className="flex flex-wrap gap-1">
              {[undefined, ...DELIVERY_STATUSES].map((option) => {
                const current = option === status || (option === undefined && status === undefined);
                return (
                  <li key={option ?? "all"}>
                    <Link
                      href={href({ status: option })}
                      aria-current={current ? "page" : undefined}
                      className={
                        "block rounded-md border px-3 py-1.5 " +
                        (current
                          ? "border-indigo-500 bg-indigo-50 font-medium text-indigo-700"
                          : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50")
                      }
                    >
                      {option ? option[0].toUpperCase() + option.slice(1) : "All"}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>

        {log.kind === "problem" ? (
          <Notice tone="error">
            {log.message}{" "}
            <Link href={base} className="underline">
              Show the whole log
            </Link>
          </Notice>
        ) : log.deliveries.length === 0 ? (
          <EmptyState
            title={log.page > 1 ? "Nothing on this page" : status ? `No ${status} deliveries` : "No deliveries yet"}
          >
            {log.page > 1 || status ? (
              <Link href={base} className="text-indigo-600 hover:underline">
                Show the whole log
              </Link>
            ) : (
              "Each event this endpoint subscribes to is listed here once it happens. Send a test to check the " +
              "receiver: a test is not logged."
            )}
          </EmptyState>
        ) : (
          <>
            <WebhookDeliveries
              orgSlug={org.slug}
              endpointId={endpoint.id}
              deliveries={log.deliveries}
              watch={endpoint.enabled && log.deliveries.some((delivery) => delivery.status === "pending")}
            />
            <Pager
              previous={log.page > 1 ? href({ status, page: log.page - 1 }) : undefined}
              next={log.page < log.pages ? href({ status, page: log.page + 1 }) : undefined}
              summary={`${log.total.toLocaleString("en-US")} deliver${log.total === 1 ? "y" : "ies"} · page ${
                log.page
              } of ${log.pages}`}
            />
          </>
        )}
      </section>
    </div>
  );
}

/** A page of the delivery log (the API's list), or why the filter or page number cannot be used. */
async function readLog(principal: MemberPrincipal, endpointId: string, status: string | undefined, page: string) {
  try {
    const { data, pagination } = await runOperation(operations.listWebhookDeliveries, principal, {
      params: { id: endpointId },
      query: { page, page_size: String(PAGE_SIZE), ...(status && { status }) },
    });
    const total = pagination?.total ?? data.length;
    return {
      kind: "log" as const,
      deliveries: data,
      total,
      page: pagination?.page ?? 1,
      pages: Math.max(1, pagination?.totalPages ?? 1),
    };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    if (error instanceof InvalidError) {
      return { kind: "problem" as const, message: "This filter or page number is not one the log has." };
    }
    return { kind: "problem" as const, message: formFailure(error).error };
  }
}
