// The organization overview's parts (server-rendered): the getting-started checklist, latency and error
// figures per operation, and the most active namespaces and identities.
import Link from "next/link";
import type { GettingStarted, OperationsSummary, TopIdentities, TopNamespace } from "@/lib/activity/overview";
import type { IdentityPerson } from "@/lib/activity/identity-people";
import type { LatencyPercentile } from "@/lib/activity/rollup";
import type { Role } from "@/lib/generated/prisma/enums";
import { formatUtc, plural } from "./format";
import { Table } from "./ui";

const cell = "px-4 py-2 whitespace-nowrap";

function formatMs(ms: number): string {
  return ms.toLocaleString("en-US");
}

/** A percentile read from the latency histogram: the bucket it falls in (exact below 10 ms). */
export function formatPercentile(p: LatencyPercentile | null): string {
  if (!p) return "—";
  if (p.toMs === null) return `≥ ${formatMs(p.fromMs)} ms`;
  if (p.toMs === p.fromMs) return `${formatMs(p.fromMs)} ms`;
  return `${formatMs(p.fromMs)}–${formatMs(p.toMs)} ms`;
}

function formatRate(rate: number): string {
  if (rate === 0) return "0%";
  return rate < 0.001 ? "< 0.1%" : `${(rate * 100).toFixed(1)}%`;
}

interface ChecklistStep {
  done: boolean;
  title: string;
  how: string;
  /** Where the step is done; null when the person cannot do it in the console (shown as `action`, unlinked). */
  href: string | null;
  action: string;
}

/**
 * The steps a person can take with their role: members cannot create namespaces (an owner or admin grants
 * them one), so theirs is asking for access. The memory and MCP steps lead to the person's first namespace:
 * its try-it panel and its MCP snippets.
 */
export function GettingStartedChecklist({
  orgSlug,
  role,
  steps: progress,
}: {
  orgSlug: string;
  role: Role;
  steps: GettingStarted;
}) {
  const createsNamespaces = role !== "member";
  const namespaces = `/${orgSlug}/namespaces`;
  const namespacePage = progress.firstNamespaceId ? `${namespaces}/${progress.firstNamespaceId}` : null;
  const noNamespaceYet = createsNamespaces
    ? { href: `${namespaces}?create=1`, action: "Create a namespace first" }
    : { href: null, action: "Needs a namespace first" };
  const steps: ChecklistStep[] = [
    {
      done: progress.keyCreated,
      title: "Create an API key",
      how: "Apps and MCP clients authenticate with a key.",
      // The page opens with its generate dialog: the step's action is that dialog, not a page to look through.
      href: `/${orgSlug}/keys?generate=1`,
      action: "Create a key",
    },
    createsNamespaces
      ? {
          done: progress.namespaceCreated,
          title: "Create a namespace",
          how: "A namespace holds the memories of one app, team or project.",
          href: `${namespaces}?create=1`,
          action: "Create a namespace",
        }
      : {
          done: progress.namespaceCreated,
          title: "Get access to a namespace",
          how: "Owners and admins create namespaces and grant them to members: ask one of them for access.",
          href: `/${orgSlug}/members`,
          action: "See the admins",
        },
    {
      done: progress.remembered,
      title: "Remember a first memory",
      how: "From the namespace's try-it panel, POST /api/v1/remember with the key, or an MCP client's remember tool.",
      ...(namespacePage ? { href: `${namespacePage}#try-it`, action: "See how" } : noNamespaceYet),
    },
    {
      done: progress.mcpConnected,
      title: "Connect an MCP client",
      how: "Claude, ChatGPT, Cursor or VS Code, with the namespace's MCP endpoint.",
      ...(namespacePage ? { href: `${namespacePage}#connect-mcp`, action: "Get the MCP endpoint" } : noNamespaceYet),
    },
  ];
  const remaining = steps.filter((step) => !step.done).length;
  return (
    <section aria-labelledby="getting-started" className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-100 px-5 py-4">
        <h2 id="getting-started" className="text-base font-semibold">
          Getting started
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {remaining === 0 ? "All set: every step is done." : `${4 - remaining} of 4 steps done.`}
        </p>
      </header>
      <ol className="divide-y divide-slate-100">
        {steps.map((step, i) => (
          <li key={step.title} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-3">
            <span
              aria-hidden="true"
              className={
                "flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold " +
                (step.done ? "bg-emerald-600 text-white" : "border border-slate-300 text-slate-500")
              }
            >
              {step.done ? "✓" : i + 1}
            </span>
            {/* At least 12rem: on a phone the link wraps below the step instead of squeezing it. */}
            <div className="min-w-48 flex-1">
              <p className="text-sm font-medium text-slate-800">
                {step.title} <span className="sr-only">{step.done ? "(done)" : "(to do)"}</span>
              </p>
              <p className="text-xs text-slate-600">{step.how}</p>
            </div>
            {step.done ? (
              <span className="ml-10 text-xs font-medium text-emerald-700 sm:ml-0">Done</span>
            ) : step.href ? (
              <Link href={step.href} className="ml-10 text-sm font-medium text-indigo-600 hover:underline sm:ml-0">
                {step.action}
              </Link>
            ) : (
              <span className="ml-10 text-xs text-slate-600 sm:ml-0">{step.action}</span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

const LATENCY_COLUMNS = ["Operation", "Operations", "p50", "p95", "Error rate", "Refused (4xx)", "Failed (5xx)"];

/** Per operation: its count, latency percentiles and errors; on a phone a card per operation (stacked). */
export function LatencyTable({ summary }: { summary: OperationsSummary }) {
  const rows = [...summary.operations.map((s) => ({ label: s.operation, ...s })), { label: "All", ...summary.total }];
  const [operation, ...labels] = LATENCY_COLUMNS;
  return (
    <Table columns={[operation, ...labels]} stacked>
      {rows.map((row) => (
        <tr key={row.label} className={row.label === "All" ? "font-medium" : undefined}>
          <td className={cell}>{row.label}</td>
          {[
            row.count.toLocaleString("en-US"),
            formatPercentile(row.p50),
            formatPercentile(row.p95),
            formatRate(row.errorRate),
            row.clientErrors.toLocaleString("en-US"),
            row.serverErrors.toLocaleString("en-US"),
          ].map((value, i) => (
            <td key={labels[i]} className={cell} data-label={labels[i]}>
              {value}
            </td>
          ))}
        </tr>
      ))}
    </Table>
  );
}

function RankedList({ title, children, empty }: { title: string; children: React.ReactNode[]; empty: string }) {
  return (
    <section className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 className="border-b border-slate-100 px-5 py-3 text-base font-semibold">{title}</h2>
      {children.length === 0 ? (
        <p className="px-5 py-4 text-sm text-slate-600">{empty}</p>
      ) : (
        <ol className="divide-y divide-slate-100 text-sm">{children}</ol>
      )}
    </section>
  );
}

function RankedItem({ href, label, operations }: { href: string; label: string; operations: number }) {
  return (
    <li className="flex items-center justify-between gap-4 px-5 py-2">
      <Link href={href} className="min-w-0 truncate font-medium text-indigo-600 hover:underline" title={label}>
        {label}
      </Link>
      <span className="shrink-0 text-slate-600">{plural(operations, "operation")}</span>
    </li>
  );
}

export function TopLists({
  orgSlug,
  namespaces,
  identities,
  people,
}: {
  orgSlug: string;
  namespaces: TopNamespace[];
  identities: TopIdentities;
  /** The identities that are members' user ids, named by their address (as on the identities pages). */
  people: Map<string, IdentityPerson>;
}) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <RankedList title="Most active namespaces" empty="No namespace had activity in the last 30 days.">
        {namespaces.map((ns) => (
          <RankedItem key={ns.id} href={`/${orgSlug}/namespaces/${ns.id}`} label={ns.name} operations={ns.operations} />
        ))}
      </RankedList>
      <div className="min-w-0">
        <RankedList title="Most active identities" empty="No operation named an identity in the last 30 days.">
          {identities.identities.map((identity) => (
            <RankedItem
              key={identity.identityId}
              href={`/${orgSlug}/identities/${encodeURIComponent(identity.identityId)}`}
              label={people.get(identity.identityId)?.email ?? identity.identityId}
              operations={identity.operations}
            />
          ))}
        </RankedList>
        {identities.since && (
          <p className="mt-2 text-xs text-slate-500">
            Counted over the latest {plural(identities.sampled, "operation")} (since {formatUtc(identities.since)}).
          </p>
        )}
      </div>
    </div>
  );
}
