// The audit log's filters (a GET form: the filters are in the URL, so a filtered view can be bookmarked)
// and its entries.
import type { AuditLogEntry } from "@/lib/audit/audit";
import Link from "next/link";
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
      return { main: `API key ${entry.actorLabel ?? "(deleted)"}`, sub: entry.actor.id };
    default:
      return { main: "Operator (command line)" };
  }
}

const cell = "px-4 py-2 align-top";
const detailsClass = "max-h-40 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs";

export function AuditEntries({ entries }: { entries: AuditLogEntry[] }) {
  return (
    <Table columns={["When (UTC)", "Who", "Action", "Target", "Details"]}>
      {entries.map((entry) => {
        const actor = actorText(entry);
        const details = Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details, null, 2) : null;
        return (
          <tr key={entry.id}>
            <td className={`${cell} whitespace-nowrap text-slate-600`}>
              <time dateTime={entry.createdAt.toISOString()}>
                {entry.createdAt.toISOString().slice(0, 19).replace("T", " ")}
              </time>
            </td>
            <td className={`${cell} whitespace-nowrap`}>
              {actor.main}
              {actor.sub && <div className="font-mono text-xs text-slate-500">{actor.sub}</div>}
            </td>
            <td className={`${cell} whitespace-nowrap font-mono text-xs`}>{entry.action}</td>
            <td className={`${cell} whitespace-nowrap`}>
              <span className="text-slate-500">{entry.targetType.replaceAll("_", " ")}</span>{" "}
              {entry.targetLabel && <span className="font-medium">{entry.targetLabel}</span>}
              <div className="font-mono text-xs text-slate-500">{entry.targetId}</div>
            </td>
            <td className={`${cell} min-w-64`}>
              {details ? (
                <pre className={detailsClass} tabIndex={0} aria-label="Details">
                  {details}
                </pre>
              ) : (
                <span className="text-slate-500">—</span>
              )}
            </td>
          </tr>
        );
      })}
    </Table>
  );
}
