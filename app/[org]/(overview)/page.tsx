import { GettingStartedChecklist, LatencyTable, TopLists } from "@/components/overview";
import { OperationsChart } from "@/components/operations-chart";
import { Card, EmptyState, PageHeader } from "@/components/ui";
import { peopleOfIdentities } from "@/lib/activity/identity-people";
import { gettingStarted, operationsSummary, topIdentities, topNamespaces } from "@/lib/activity/overview";
import { ACTIVITY_CHART_DAYS, dailyOperations } from "@/lib/activity/queries";
import { memberAccess } from "@/lib/console/session";
import type { Metadata } from "next";

export const metadata: Metadata = { title: "Overview" };

export default async function OrganizationOverview({ params }: { params: Promise<{ org: string }> }) {
  const access = await memberAccess((await params).org);
  if (!access) return null;
  const { principal, org } = access;
  // One connection on the embedded database: these run one after another there, side by side on PostgreSQL.
  const [steps, days, summary, namespaces, identities] = await Promise.all([
    gettingStarted(principal),
    dailyOperations(principal),
    operationsSummary(principal),
    topNamespaces(principal),
    topIdentities(principal),
  ]);
  const people = await peopleOfIdentities(
    org.id,
    identities.identities.map((identity) => identity.identityId),
  );
  const allDone = steps.keyCreated && steps.namespaceCreated && steps.remembered && steps.mcpConnected;
  const scope = principal.role === "member" ? " in the namespaces you have access to" : "";
  return (
    <>
      <PageHeader title="Overview" description={`${org.name}: the last ${ACTIVITY_CHART_DAYS} days${scope}.`} />
      <div className="space-y-6">
        {!allDone && <GettingStartedChecklist orgSlug={org.slug} role={principal.role} steps={steps} />}
        {summary.total.count === 0 ? (
          <EmptyState title={`No operations in the last ${ACTIVITY_CHART_DAYS} days`}>
            Operations appear here once an app or an MCP client calls the gateway with an API key: counts per day,
            latency and errors per operation, and the busiest namespaces and identities.
          </EmptyState>
        ) : (
          <>
            <Card title="Operations per day">
              <OperationsChart title={`Operations per day, last ${ACTIVITY_CHART_DAYS} days (UTC)`} days={days} />
            </Card>
            <Card
              title="Latency and errors"
              description={
                "Per operation over the last 30 days. Percentiles come from a latency histogram: the range " +
                "shown is the bucket they fall in (exact below 10 ms, then buckets at most a third wide)."
              }
            >
              <LatencyTable summary={summary} />
            </Card>
            <TopLists orgSlug={org.slug} namespaces={namespaces} identities={identities} people={people} />
          </>
        )}
        {allDone && <GettingStartedChecklist orgSlug={org.slug} role={principal.role} steps={steps} />}
      </div>
    </>
  );
}
