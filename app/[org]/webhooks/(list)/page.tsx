// /{org}/webhooks — the organization's webhook endpoints: where each change is POSTed, what each receives
// (event types, namespaces, content), whether it is enabled (and, when not, why and since when), its secret's
// hint; "Add endpoint" (its secret shown once) and, per endpoint, test, enable or disable, rotate the secret,
// delete. The data comes from the API's own operations, run as the signed-in person. For a member the page
// does not exist (the layout).
import { apiKeyNames } from "@/lib/auth/api-keys/key-names";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EmptyState, PageHeader, Pager } from "@/components/ui";
import { WebhookActions } from "@/components/webhook-actions";
import { AddWebhookButton } from "@/components/webhook-create-dialog";
import {
  CircuitNotice,
  DisabledReason,
  EndpointStatusBadge,
  EndpointSummary,
  webhooksPath,
} from "@/components/webhook-parts";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { memberAccess } from "@/lib/console/session";
import { namespacesForMember } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const PAGE_SIZE = 20;
const MAX_PAGE = 100_000;

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage(props: {
  params: Promise<{ org: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ org: slug }, search] = await Promise.all([props.params, props.searchParams]);
  const access = await memberAccess(slug);
  if (!access) return null;
  const { membership, principal, org } = access;
  if (!ROLE_PERMISSIONS[membership.role].includes("WEBHOOK_MANAGE")) notFound();
  // A page number typed in the URL: anything odd is the first page, and none is past any real list.
  const page = Math.min(Math.max(1, Math.floor(Number(searchParam(search, "page")) || 1)), MAX_PAGE);

  const [endpoints, namespaces] = await Promise.all([
    runOperation(operations.listWebhooks, principal, {
      query: { page: String(page), page_size: String(PAGE_SIZE) },
    }),
    namespacesForMember(org.id, membership.userId, membership.role),
  ]);
  const namespaceNames = Object.fromEntries(namespaces.map((namespace) => [namespace.id, namespace.name]));
  const keyNames = await apiKeyNames(
    org.id,
    endpoints.data.flatMap((endpoint) => endpoint.created_by_api_key_id ?? []),
  );
  const total = endpoints.pagination?.total ?? endpoints.data.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const base = webhooksPath(org.slug);
  const href = (to: number) => (to > 1 ? `${base}?page=${to}` : base);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description={
          <>
            Each change (a memory written or deleted, a namespace created, a sync done…) is POSTed to your endpoints as
            it happens, signed with{" "}
            <a
              href="https://www.standardwebhooks.com/"
              className="text-indigo-700 underline"
              rel="noreferrer"
              target="_blank"
            >
              Standard Webhooks
            </a>
            . Applications that would rather ask read the same events from <code>GET /api/v1/events</code>.
          </>
        }
        actions={<AddWebhookButton orgSlug={org.slug} namespaces={namespaces} />}
      />

      {endpoints.data.length === 0 ? (
        <EmptyState title={page > 1 ? "Nothing on this page" : "No endpoints yet"}>
          {page > 1 ? (
            <Link href={base} className="text-indigo-600 hover:underline">
              Show the first page
            </Link>
          ) : (
            "Add an endpoint: a URL of yours that receives the changes you choose, each signed with a secret only " +
            "you and Memory Gateway know."
          )}
        </EmptyState>
      ) : (
        <>
          <ul aria-label="Endpoints" className="space-y-4">
            {endpoints.data.map((endpoint) => (
              <li
                key={endpoint.id}
                data-testid="webhook-row"
                data-webhook-id={endpoint.id}
                className="rounded-lg border border-slate-200 bg-white shadow-sm"
              >
                <article aria-labelledby={`webhook-${endpoint.id}`} className="space-y-4 px-5 py-4">
                  <header className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <h2 id={`webhook-${endpoint.id}`} className="text-sm font-semibold">
                        <Link
                          href={webhooksPath(org.slug, endpoint.id)}
                          className="font-mono text-sm text-indigo-700 [overflow-wrap:anywhere] hover:underline"
                        >
                          {endpoint.url}
                        </Link>
                      </h2>
                      {endpoint.description && (
                        <p className="mt-0.5 text-sm text-slate-600 [overflow-wrap:anywhere]">{endpoint.description}</p>
                      )}
                    </div>
                    <EndpointStatusBadge enabled={endpoint.enabled} />
                  </header>
                  <DisabledReason endpoint={endpoint} />
                  <CircuitNotice endpoint={endpoint} />
                  <EndpointSummary endpoint={endpoint} namespaceNames={namespaceNames} keyNames={keyNames} />
                  <div className="flex flex-wrap items-start justify-between gap-3 border-t border-slate-100 pt-3">
                    <WebhookActions
                      orgSlug={org.slug}
                      endpoint={{ id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled }}
                    />
                    <Link
                      href={webhooksPath(org.slug, endpoint.id)}
                      aria-label={`Delivery log of ${endpoint.url}`}
                      className="py-2 text-sm font-medium text-indigo-700 hover:underline"
                    >
                      Delivery log →
                    </Link>
                  </div>
                </article>
              </li>
            ))}
          </ul>
          <Pager
            previous={page > 1 ? href(page - 1) : undefined}
            next={page < pages ? href(page + 1) : undefined}
            summary={`${total.toLocaleString("en-US")} endpoint${total === 1 ? "" : "s"} · page ${page} of ${pages}`}
          />
        </>
      )}
    </div>
  );
}
