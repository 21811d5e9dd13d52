// /{org}/namespaces/{namespaceId} — a namespace's overview, its try-it panel, its MCP endpoint and its
// permissions panel.
// A namespace the person may not see (another organization's, or not granted to a member) is a 404 page.
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { formatUtc } from "@/components/format";
import { McpSnippets } from "@/components/mcp-snippets";
import { DeleteNamespaceButton } from "@/components/namespace-delete-button";
import { NamespaceFieldEditor } from "@/components/namespace-field-editor";
import { NamespaceGrantsPanel, type GrantRow } from "@/components/namespace-grants-panel";
import { NamespaceTabs } from "@/components/namespace-tabs";
import { OperationsChart } from "@/components/operations-chart";
import { CopyButton } from "@/components/copy-button";
import { NamespaceConnectionsCard, type NamespaceConnectionData } from "@/components/integrations-namespace-card";
import { TryItPanel } from "@/components/try-it-panel";
import { Card, PageHeader } from "@/components/ui";
import { dailyOperations } from "@/lib/activity/queries";
import { ROLE_PERMISSIONS } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import { consoleOrigin } from "@/lib/console/public-origin";
import { memberAccess, orNotFound } from "@/lib/console/session";
import { ForbiddenError } from "@/lib/errors";
import { NamespaceIdForm } from "@/lib/namespaces/forms";
import { PROVIDERS } from "@/lib/integrations/providers";
import { mcpEndpointUrl } from "@/lib/namespaces/mcp-endpoint";
import { grantCandidates, namespaceGrantees, namespaceOverview, type GranteeRow } from "@/lib/namespaces/overview";
import { operations } from "@/lib/operations/catalogue";
import { assertOperationAllowed, runOperation } from "@/lib/operations/run";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Namespace" };

export default async function NamespacePage({ params }: { params: Promise<{ org: string; namespaceId: string }> }) {
  const { org: slug, namespaceId } = await params;
  const access = await memberAccess(slug);
  if (!access) return null;
  // An id no namespace can have (a NUL typed in the URL) is not found, not a database error.
  const id = NamespaceIdForm.safeParse({ namespace_id: namespaceId });
  if (!id.success) notFound();
  const { principal } = access;
  const overview = await orNotFound(namespaceOverview(principal, id.data.namespace_id));
  const { namespace } = overview;
  const manages = access.membership.role !== "member";
  const managesIntegrations = ROLE_PERMISSIONS[access.membership.role].includes("INTEGRATION_MANAGE");
  const [grantees, days, candidates, connections, origin] = await Promise.all([
    namespaceGrantees(principal, namespace.id),
    dailyOperations(principal, { namespaceId: namespace.id }),
    manages ? grantCandidates(principal, namespace.id) : null,
    managesIntegrations ? namespaceConnections(principal, namespace.id) : null,
    consoleOrigin(),
  ]);
  const orgSlug = access.org.slug;
  const base = `/${orgSlug}/namespaces/${namespace.id}`;
  // The API's own `mcp_endpoint_url`: the address OAuth discovery is tested from (tests/mcp/mcp-oauth.test.ts).
  const mcpUrl = mcpEndpointUrl(namespace.id);

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href={`/${orgSlug}/namespaces`} className="text-indigo-600 hover:underline">
          ← Namespaces
        </Link>
      </nav>
      <PageHeader
        title={namespace.name}
        description="A separate memory space with its own grants and MCP endpoint."
        actions={
          <>
            <Link
              href={`${base}/memories`}
              className={
                "rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
              }
            >
              Browse memories
            </Link>
            {manages && (
              <DeleteNamespaceButton
                orgSlug={orgSlug}
                namespace={{ id: namespace.id, name: namespace.name, memoryCount: overview.memoryCount }}
                afterDelete={`/${orgSlug}/namespaces`}
              />
            )}
          </>
        }
      />
      <NamespaceTabs orgSlug={orgSlug} namespaceId={namespace.id} current="overview" />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Overview">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-3 text-sm sm:grid-cols-[10rem_1fr]">
            <Term label="ID">
              <div className="flex min-w-0 items-center gap-2">
                <code data-testid="namespace-id" className="min-w-0 break-all font-mono text-xs">
                  {namespace.id}
                </code>
                <CopyButton text={namespace.id} label="Copy the namespace id" />
              </div>
            </Term>
            <Term label="External reference id">
              <NamespaceFieldEditor
                orgSlug={orgSlug}
                namespaceId={namespace.id}
                field="external_reference_id"
                label="External reference id"
                value={namespace.externalReferenceId}
                canEdit={manages}
                mono
              />
            </Term>
            <Term label="Description">
              <NamespaceFieldEditor
                orgSlug={orgSlug}
                namespaceId={namespace.id}
                field="description"
                label="Description"
                value={namespace.description}
                canEdit={manages}
              />
            </Term>
            <Term label="Memories">
              <Link href={`${base}/memories`} data-testid="memory-count" className="text-indigo-700 hover:underline">
                {overview.memoryCount.toLocaleString("en-US")}
              </Link>
            </Term>
            <Term label="Identities">
              <span data-testid="identity-count">{overview.identityCount.toLocaleString("en-US")}</span>
            </Term>
            <Term label="Created">{formatUtc(namespace.createdAt)}</Term>
          </dl>
        </Card>
        <Card title="Activity" description="API and MCP operations in this namespace, last 30 days (UTC).">
          <OperationsChart title="Operations per day" days={days} />
        </Card>
      </div>

      <div id="try-it" className="scroll-mt-4">
        <Card
          title="Try it"
          description="Remember, recall and ask in this namespace as you, through the same operations as the API."
        >
          <TryItPanel
            orgSlug={orgSlug}
            namespaceId={namespace.id}
            apiBase={`${origin}/api/v1`}
            rememberRefusal={refusal(() => assertOperationAllowed(operations.remember, principal))}
          />
        </Card>
      </div>

      <div id="connect-mcp" className="scroll-mt-4">
        <Card
          title="Connect an AI client (MCP)"
          description="This namespace is an MCP server: add its URL to a client, which signs you in, or use an API key."
        >
          <McpSnippets url={mcpUrl} />
        </Card>
      </div>

      <NamespaceGrantsPanel
        orgSlug={orgSlug}
        namespaceId={namespace.id}
        rows={grantees.map(grantRow)}
        candidates={candidates}
      />

      {connections && (
        <NamespaceConnectionsCard orgSlug={orgSlug} connections={connections.items} more={connections.more} />
      )}
    </div>
  );
}

function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </>
  );
}

/** The message of the check `assert` makes when it refuses (ForbiddenError), or null when it passes. */
function refusal(assert: () => void): string | null {
  try {
    assert();
    return null;
  } catch (error) {
    if (error instanceof ForbiddenError) return error.message;
    throw error;
  }
}

const CONNECTIONS_LISTED = 20;

/** The namespace's connections (the API's list, narrowed to it), newest first as the API lists them. */
async function namespaceConnections(principal: Principal, namespaceId: string) {
  const { data, pagination } = await runOperation(operations.listIntegrationConnections, principal, {
    query: { namespace_id: namespaceId, page_size: String(CONNECTIONS_LISTED) },
  });
  const items: NamespaceConnectionData[] = data.map((connection) => ({
    id: connection.id,
    providerName: PROVIDERS[connection.provider].name,
    status: connection.status,
    account: connection.account,
    lastSync: formatUtc(connection.last_sync_at, "never"),
    documents: connection.documents_synced,
  }));
  return { items, more: (pagination?.total ?? 0) > items.length };
}

function grantRow(row: GranteeRow): GrantRow {
  const common = { grantId: row.grantId, can: row.can, inactive: row.inactive, note: row.note };
  if (row.kind === "user") return { ...common, kind: "user", user: row.user };
  return { ...common, kind: "api_key", key: { ...row.key, lastUsedAt: formatUtc(row.key.lastUsedAt, "never") } };
}
