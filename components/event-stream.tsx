"use client";
// A namespace's event stream, newest first: what changed (a memory written, deleted, a sync done), when, for
// which identity, with the event's ids and counts. "Check for newer events" reads on from the page's cursor
// (the feed's own), as an application polling GET /events would.
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { newerNamespaceEventsAction } from "@/lib/console/actions/events";
import type { EventJson } from "@/lib/events/schemas";
import { useActionForm } from "./action-form";
import { DateTime } from "./date-time";
import { Button, Notice, Table } from "./ui";

const COLUMNS = ["When", "Type", "Identity", "Details"];
const cell = "px-4 py-2 align-top";
const TOKEN = "font-mono text-xs [overflow-wrap:anywhere]";

export function EventStream({
  orgSlug,
  namespaceId,
  events: initialEvents,
  cursor: initialCursor,
  canReadOn,
  empty,
}: {
  orgSlug: string;
  namespaceId: string;
  /** Newest first. */
  events: EventJson[];
  /** The feed's cursor after the newest event shown. */
  cursor: string;
  /** Whether the newest events are shown (so "newer" means what happens from now on). */
  canReadOn: boolean;
  empty: ReactNode;
}) {
  const [events, setEvents] = useState(initialEvents);
  const [cursor, setCursor] = useState(initialCursor);
  const form = useActionForm(async (_: undefined) => {
    const result = await newerNamespaceEventsAction(orgSlug, { namespace_id: namespaceId, after: cursor });
    if (!result.ok) return result;
    const newer = result.data.events;
    setEvents((shown) => [...[...newer].reverse(), ...shown]);
    setCursor(result.data.next_cursor);
    const count = newer.length;
    const more = result.data.has_more ? " There are more: check again." : "";
    return {
      ok: true as const,
      data: count === 0 ? "No newer events." : `${count} newer event${count === 1 ? "" : "s"}.${more}`,
    };
  });

  return (
    <div className="space-y-3">
      {canReadOn && (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" disabled={form.pending} onClick={() => form.run()}>
            Check for newer events
          </Button>
          {form.error && <Notice tone="error">{form.error}</Notice>}
          {!form.error && form.data && (
            <span role="status" className="text-sm text-slate-600">
              {form.data}
            </span>
          )}
        </div>
      )}
      {events.length === 0 ? (
        empty
      ) : (
        <Table columns={COLUMNS} stacked>
          {events.map((event) => (
            <tr key={event.id} data-testid="event-row" data-event-id={event.id}>
              <td className={`${cell} whitespace-nowrap text-xs text-slate-600`} data-label={COLUMNS[0]}>
                <DateTime value={event.created_at} seconds />
              </td>
              <td className={`${cell} whitespace-nowrap`} data-label={COLUMNS[1]}>
                <code className="font-mono text-xs font-medium text-slate-800" data-testid="event-type">
                  {event.type}
                </code>
              </td>
              <td className={`${cell} min-w-32`} data-label={COLUMNS[2]}>
                {event.identity_id ? (
                  <Link
                    href={`/${orgSlug}/identities/${encodeURIComponent(event.identity_id)}`}
                    className={`${TOKEN} text-indigo-700 hover:underline`}
                  >
                    {event.identity_id}
                  </Link>
                ) : (
                  <span className="text-slate-500">—</span>
                )}
              </td>
              <td className={`${cell} min-w-64`} data-label={COLUMNS[3]}>
                <EventDetails event={event} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

/** The event's data as `name value` pairs (its namespace is this page's), and the memory's scopes. */
function EventDetails({ event }: { event: EventJson }) {
  const entries = Object.entries(event.data).filter(([name]) => name !== "namespace_id");
  const scopes = Object.entries(event.scopes)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");
  if (entries.length === 0 && !scopes) return <span className="text-slate-500">—</span>;
  return (
    <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs" data-testid="event-details">
      {entries.map(([name, value]) => (
        <div key={name} className="flex min-w-0 gap-1">
          <dt className="text-slate-500">{name}</dt>
          <dd className={`min-w-0 text-slate-800 ${TOKEN}`}>{summary(value)}</dd>
        </div>
      ))}
      {scopes && (
        <div className="flex min-w-0 gap-1">
          <dt className="text-slate-500">scopes</dt>
          <dd className={`min-w-0 text-slate-800 ${TOKEN}`}>{scopes}</dd>
        </div>
      )}
    </dl>
  );
}

const SUMMARY_MAX = 120;

function summary(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text;
}
