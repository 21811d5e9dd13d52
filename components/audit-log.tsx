// The audit log's filters (a GET form: the filters are in the URL, so a filtered view can be bookmarked)
// and its entries.
import type { AuditLogEntry } from "@/lib/audit/audit";
import Link from "next/link";
import { formatScopePairs } from "@/lib/auth/scopes";
import { DateTime } from "./date-time";
import { Button, Field, Input, Select, Table } from "./ui";

export interface AuditFilterValues {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

export function AuditFilters({
  basePath,
  values,
  errors,
  actors,
  actions,
}: {
  basePath: string;
  values: AuditFilterValues;
  errors: Record<string, string>;
  actors: { value: string; label: string }[];
  actions: string[];
}) {
  return (
    <form method="get" action={basePath} className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
      <Field label="Who" error={errors.actor}>
        <Select name="actor" defaultValue={values.actor ?? ""}>
          <option value="">Anyone</option>
          {actors.map((actor) => (
            <option key={actor.value} value={actor.value}>
              {actor.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Action" error={errors.action}>
        <Select name="action" defaultValue={values.action ?? ""}>
          <option value="">Any action</option>
          {actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="From (UTC)" error={errors.from}>
        <Input type="date" name="from" defaultValue={values.from ?? ""} aria-invalid={errors.from ? true : undefined} />
      </Field>
      <Field label="To (UTC, included)" error={errors.to}>
        <Input type="date" name="to" defaultValue={values.to ?? ""} aria-invalid={errors.to ? true : undefined} />
      </Field>
      <div className="flex items-center gap-3">
        <Button type="submit">Filter</Button>
        <Link href={basePath} className="text-sm text-slate-600 hover:underline">
          Clear
        </Link>
      </div>
    </form>
  );
}

function actorText(entry: AuditLogEntry): { main: string; sub?: string } {
  switch (entry.actor.type) {
    case "user":
      return { main: entry.actorLabel ?? "Deleted user", sub: entry.actorLabel ? undefined : entry.actor.id };
    case "api_key":
      return { main: entry.actorLabel ?? "API key (deleted)", sub: entry.actor.id };
    default:
      return { main: "Operator (command line)" };
  }
}

const cell = "px-4 py-2 align-top";
/** Ids and URLs have no word boundaries: they alone may break anywhere to fit. */
const token = "font-mono text-xs [overflow-wrap:anywhere]";
const COLUMNS = ["When", "Who", "Action", "Target", "Details"];

export function AuditEntries({ entries }: { entries: AuditLogEntry[] }) {
  return (
    <Table columns={COLUMNS} stacked>
      {entries.map((entry) => {
        const actor = actorText(entry);
        return (
          <tr key={entry.id} data-testid="audit-row">
            <td className={`${cell} whitespace-nowrap text-slate-600`} data-label={COLUMNS[0]}>
              <DateTime value={entry.createdAt} seconds />
            </td>
            <td className={`${cell} min-w-40`} data-label={COLUMNS[1]}>
              {actor.main}
              {actor.sub && <div className={`${token} text-slate-500`}>{actor.sub}</div>}
            </td>
            <td className={`${cell} whitespace-nowrap font-mono text-xs`} data-label={COLUMNS[2]}>
              {entry.action}
            </td>
            <td className={`${cell} min-w-40`} data-label={COLUMNS[3]}>
              <span className="text-slate-500">{entry.targetType.replaceAll("_", " ")}</span>{" "}
              {entry.targetLabel && <span className="font-medium">{entry.targetLabel}</span>}
              <div className={`${token} text-slate-500`}>{entry.targetId}</div>
            </td>
            <td className={`${cell} min-w-72`}>
              <AuditDetails details={entry.details} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

// Detail keys were written over time in snake_case and, by a few older writers, camelCase: both read as the
// same words here, so the log reads alike whatever year an entry comes from. Stored entries are not rewritten.
const ACRONYMS: Record<string, string> = { id: "ID", ids: "IDs", api: "API", sso: "SSO", url: "URL", uri: "URI" };

/** `memories_deleted` and `memoriesDeleted` alike: "Memories deleted"; `namespace_ids`: "Namespace IDs". */
export function detailLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => ACRONYMS[word] ?? word);
  if (words.length === 0) return key;
  return [words[0][0].toUpperCase() + words[0].slice(1), ...words.slice(1)].join(" ");
}

/** A prefixed id (`key_…`, `ns_…`) or a URL: shown as a token. */
const TOKEN = /^([a-z]{2,5}_[A-Za-z0-9]{8,}|[a-z][a-z0-9+.-]*:\/\/\S+)$/;

function DetailValue({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === "") return <span className="text-slate-500">—</span>;
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  if (typeof value === "number") return <span className="tabular-nums">{value.toLocaleString("en-US")}</span>;
  if (typeof value === "string") return TOKEN.test(value) ? <span className={token}>{value}</span> : <>{value}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="text-slate-500">none</span>;
    if (value.every((item) => item === null || typeof item !== "object")) {
      return (
        <ul className="flex flex-wrap gap-x-3 gap-y-0.5">
          {value.map((item, i) => (
            <li key={i}>
              <DetailValue value={item} />
            </li>
          ))}
        </ul>
      );
    }
    return (
      <ol className="space-y-1">
        {value.map((item, i) => (
          <li key={i} className="rounded border border-slate-100 px-2 py-1">
            <DetailValue value={item} />
          </li>
        ))}
      </ol>
    );
  }
  const object = value as Record<string, unknown>;
  if (Object.keys(object).length === 0) return <span className="text-slate-500">none</span>;
  return <DetailList details={object} />;
}

/** Scope names are the organization's own words: shown as typed (`team=sales`), not as labels. */
function isScopes(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

function DetailList({ details }: { details: Record<string, unknown> }) {
  return (
    <dl className="grid grid-cols-[minmax(5rem,auto)_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {Object.entries(details).map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-slate-500">{detailLabel(key)}</dt>
          <dd className="min-w-0 break-words text-slate-800">
            {key === "scopes" && isScopes(value) ? (
              <span className={token}>{formatScopePairs(value) || "none"}</span>
            ) : (
              <DetailValue value={value} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** An entry's details as labelled lines, and the JSON as stored behind "Raw". */
export function AuditDetails({ details }: { details: Record<string, unknown> }) {
  if (Object.keys(details).length === 0) return <span className="text-slate-500">—</span>;
  return (
    <div className="space-y-1" data-testid="audit-details">
      <DetailList details={details} />
      <details className="text-xs">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Raw</summary>
        <pre
          className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 [overflow-wrap:anywhere]"
          tabIndex={0}
          aria-label="Details as stored"
        >
          {JSON.stringify(details, null, 2)}
        </pre>
      </details>
    </div>
  );
}
