import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { namespaceNotFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { listingFingerprint, signedCursors } from "@/lib/http/signed-cursor";
import { contentJoin, SETTLED, visibleEvents } from "./event-access";
import { EVENT_COLUMNS, eventJson, type EventRow } from "./event-json";
import type { EventFeedQuery } from "./schemas";

/** A place in the feed: the last event read, by its transaction and sequence numbers (as text: they are 64-bit). */
const cursors = signedCursors(
  "events",
  z.object({ l: z.string(), t: z.string().regex(/^\d+$/), s: z.string().regex(/^\d+$/) }),
  { name: "after", source: "the next_cursor of an earlier read" },
);

/**
 * GET /events: the organization's events the principal may read (visibleEvents), oldest first, after `after`.
 * The cursor is bound to the organization only, so a reader may change its filters and keep its place.
 */
export async function listEvents(principal: Principal, query: EventFeedQuery) {
  const listing = listingFingerprint(["events", principal.orgId]);
  const visible = await visibleEvents(principal);
  if (query.namespace_id !== undefined)
    await assertNamespaceReadable(visible.namespaceIds, principal.orgId, query.namespace_id);
  const position = query.after ? cursors.read(query.after, listing, principal.orgId) : { t: "0", s: "0" };
  const prisma = await db();
  // The newest `limit` (read newest first, then put back in order), or the oldest after the cursor.
  const direction = query.latest ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const read = await prisma.$queryRaw<EventRow[]>(
    Prisma.sql`SELECT ${Prisma.raw(EVENT_COLUMNS)}
     FROM events e ${contentJoin(principal, query.include_content)}
     WHERE ${visible.where} AND ${SETTLED}
       AND (e.txid, e.seq) > (${position.t}::bigint, ${position.s}::bigint)
       ${query.namespace_id !== undefined ? Prisma.sql`AND e.namespace_id = ${query.namespace_id}` : Prisma.empty}
       ${query.type ? Prisma.sql`AND e.type = ANY(${query.type}::text[])` : Prisma.empty}
     ORDER BY e.txid ${direction}, e.seq ${direction}
     LIMIT ${query.latest ? query.limit : query.limit + 1}`,
  );
  const rows = query.latest ? read.reverse() : read;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    events: page.map((row) => eventJson(row, query.include_content)),
    next_cursor: last
      ? cursors.write({ l: listing, t: String(last.txid), s: String(last.seq) }, principal.orgId)
      : cursors.write({ l: listing, ...position }, principal.orgId),
    has_more: rows.length > query.limit,
  };
}

/**
 * A namespace filter the principal may not read is a 404 like the namespace itself. One that was deleted is
 * still readable by those who see the whole organization (its last events say it went).
 */
async function assertNamespaceReadable(readable: string[] | "all", orgId: string, namespaceId: string) {
  if (readable !== "all") {
    if (!readable.includes(namespaceId)) throw namespaceNotFound(`Namespace ${namespaceId}`);
    return;
  }
  const prisma = await db();
  const [known] = await prisma.$queryRaw<{ known: boolean }[]>(
    Prisma.sql`SELECT EXISTS (SELECT 1 FROM namespaces WHERE id = ${namespaceId} AND org_id = ${orgId})
                   OR EXISTS (SELECT 1 FROM events WHERE org_id = ${orgId} AND namespace_id = ${namespaceId}) AS known`,
  );
  if (!known.known) throw namespaceNotFound(`Namespace ${namespaceId}`);
}
