import type { EventJson } from "./schemas";
import { EventType, MEMORY_EVENT_TYPES } from "@/lib/event-recording/event-types";

/** An event as the database returns it, with its memory's content when that was asked for (contentJoin). */
export interface EventRow {
  id: string;
  txid: bigint;
  seq: bigint;
  type: string;
  created_at: Date;
  namespace_id: string | null;
  identity_id: string | null;
  scopes: Record<string, string>;
  data: Record<string, unknown>;
  content: string | null;
}

/** The selected columns of an EventRow from `events e` and `memories m`. */
export const EVENT_COLUMNS = `e.id, e.txid, e.seq, e.type, e.created_at, e.namespace_id, e.identity_id, e.scopes,
  e.data, m.content`;

/** What an event shows of its row: not its place in the feed's order (txid, seq), which a cursor reads. */
export type EventBodyRow = Omit<EventRow, "txid" | "seq">;

export function eventJson(row: EventBodyRow, includeContent: boolean): EventJson {
  const type = EventType.parse(row.type);
  return {
    id: row.id,
    type,
    created_at: row.created_at.toISOString(),
    namespace_id: row.namespace_id,
    identity_id: row.identity_id,
    scopes: row.scopes,
    data: row.data,
    ...(includeContent && MEMORY_EVENT_TYPES.includes(type) && { content: row.content }),
  };
}
