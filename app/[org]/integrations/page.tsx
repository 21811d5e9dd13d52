// /{org}/integrations — the providers a namespace can be connected to (GitHub, Notion, Google Drive, Slack),
// the organization's own OAuth clients (owners) and every connection with its sync. The data comes from the
// API's own operations, run as the signed-in person. The provider's consent page sends the person back here
// through the API's callback, with `?connected=<id>` or `?error=<message>`.
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatUtc } from "@/components/format";
import { IntegrationConnections, type ConnectionRowData } from "@/components/integrations-connections";
import { IntegrationProviders, type ProviderCardData } from "@/components/integrations-providers";
import { EmptyState, Notice, PageHeader, Pager } from "@/components/ui";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import { memberAccess } from "@/lib/console/session";
import { searchParam, type SearchParams } from "@/lib/console/search-params";
import { listProviders } from "@/lib/integrations/clients";
import { defaultRedirectUri } from "@/lib/integrations/connections/authorization-flow";
import { PROVIDERS } from "@/lib/integrations/providers";
import type { ConnectionJson } from "@/lib/integrations/schemas";
import { namespacesForMember } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

const PAGE_SIZE = 50;
const MAX_PAGE = 100_000;
/** How long a pending connection may still complete: its OAuth state's lifetime. */
const PENDING_LIFETIME_MS = 10 * 60_000;

export const metadata: Metadata = { title: "Integrations" };

export default async function IntegrationsPage(props: {
  params: Promise<{ org: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const [{ org: slug }, search] = await Promise.all([props.params, props.searchParams]);
  const access = await memberAccess(slug);
  if (!access) return null;
  const { membership, principal, org } = access;
  if (!ROLE_PERMISSIONS[membership.role].includes("INTEGRATION_MANAGE")) notFound();
  const isOwner = membership.role === "owner";
  // A page number typed in the URL: anything odd is the first page, and none is past any real list.
  const page = Math.min(Math.max(1, Math.floor(Number(searchParam(search, "page")) || 1)), MAX_PAGE);

  // The providers as the API lists them, with the organization's own client id (not secret) for its form.
  const [providers, connections, namespaces] = await Promise.all([
    listProviders(org.id),
    runOperation(operations.listIntegrationConnections, principal, {
      query: { page: String(page), page_size: String(PAGE_SIZE) },
    }),
    namespacesForMember(org.id, membership.userId, membership.role),
  ]);
  const providerCards: ProviderCardData[] = providers.map((provider) => ({
    id: provider.id,
    name: provider.name,
    syncs: provider.syncs,
    scopes: provider.scopes,
    configured: provider.configured,
    configuredBy: provider.configured_by,
    organizationClientId: isOwner ? provider.organizationClientId : null,
    settingsPrefix: PROVIDERS[provider.id].settingsPrefix,
  }));
  const namespaceNames = new Map(namespaces.map((namespace) => [namespace.id, namespace.name]));
  const now = Date.now();
  const rows: ConnectionRowData[] = connections.data.map((connection) => ({
    id: connection.id,
    providerName: PROVIDERS[connection.provider].name,
    namespace: {
      id: connection.namespace_id,
      name: namespaceNames.get(connection.namespace_id) ?? connection.namespace_id,
    },
    status: connection.status,
    account: connection.account,
    lastSync: formatUtc(connection.last_sync_at, "never"),
    documents: connection.documents_synced,
    lastError: connection.last_error,
    settling: settling(connection, now),
  }));
  const total = connections.pagination?.total ?? rows.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const base = `/${org.slug}/integrations`;
  const href = (to: number) => (to > 1 ? `${base}?page=${to}` : base);

  const connectedId = searchParam(search, "connected");
  const connected = connectedId ? rows.find((row) => row.id === connectedId) : undefined;
  const failure = searchParam(search, "error");

  return (
    <div className="space-y-8">
      <PageHeader
        title="Integrations"
        description={
          "Connect a namespace to the places your team's knowledge already lives: their documents become " +
          "memories, kept up to date by background syncs."
        }
      />
      {connectedId && (
        <Notice tone="success">
          {connected
            ? `${connected.providerName} is connected to ${connected.namespace.name}. `
            : "The connection is complete. "}
          The first sync runs in the background; this page shows its progress.
        </Notice>
      )}
      {failure && <Notice tone="error">The connection could not be completed: {failure}</Notice>}

      <section aria-labelledby="providers-heading" className="space-y-3">
        <h2 id="providers-heading" className="text-lg font-semibold">
          Providers
        </h2>
        <IntegrationProviders
          orgSlug={org.slug}
          isOwner={isOwner}
          providers={providerCards}
          namespaces={namespaces}
          callbackUrl={defaultRedirectUri()}
        />
      </section>

      <section aria-labelledby="connections-heading" className="space-y-3">
        <h2 id="connections-heading" className="text-lg font-semibold">
          Connections
        </h2>
        {/* Rendered also when empty: it says what the last action did (a disconnect that emptied the list). */}
        <IntegrationConnections
          orgSlug={org.slug}
          rows={rows}
          empty={
            <EmptyState title={page > 1 ? "Nothing on this page" : "No connections yet"}>
              {page > 1 ? (
                <Link href={base} className="text-indigo-600 hover:underline">
                  Show the first page
                </Link>
              ) : (
                "Connect a provider above: you choose the namespace its documents go to and what to read, then " +
                "allow access on the provider's own page."
              )}
            </EmptyState>
          }
        />
        {rows.length > 0 && (
          <Pager
            previous={page > 1 ? href(page - 1) : undefined}
            next={page < pages ? href(page + 1) : undefined}
            summary={`${connectionCount(total)} · page ${page} of ${pages}`}
          />
        )}
      </section>
    </div>
  );
}

function connectionCount(total: number): string {
  return `${total.toLocaleString("en-US")} connection${total === 1 ? "" : "s"}`;
}

/**
 * Whether a connection is still changing on its own, so the page keeps reading it: a sync queued or
 * running, a first sync not yet done, or a consent that may still come back.
 */
function settling(connection: ConnectionJson, now: number): boolean {
  if (connection.status === "syncing") return true;
  // A consent declined or failed is said in last_error; one never answered ends with its state.
  if (connection.status === "pending") {
    return connection.last_error === null && now - Date.parse(connection.created_at) < PENDING_LIFETIME_MS;
  }
  return connection.status === "active" && connection.last_sync_at === null && connection.last_error === null;
}
