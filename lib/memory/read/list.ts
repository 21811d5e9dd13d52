// Listing a namespace's memories, newest first, a page at a time (or one conversation's turns in their
// order): GET /api/v1/memories and the console's memory explorer (one implementation for both).
import { z } from "zod";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { Scopes } from "@/lib/auth/scopes";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/errors";
import { PaginationQuery } from "@/lib/http/pagination";
import { identifier, text } from "@/lib/validation/strings";
import type { ActivityNote } from "@/lib/activity/activity";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { effectiveScopes } from "../common/scopes";
import { IdentityId, LIMITS, SessionId, type MemoryRow } from "../common/schemas";
import { exactlyOneTarget, TARGET_RULE, TargetId } from "@/lib/validation/target";
import { listingFingerprint, signedCursors } from "@/lib/http/signed-cursor";
import { memoryFilter } from "../common/sql";

const PAIR_FORM = "key:value (split at the first colon); repeat the parameter for several pairs, all must match";

/**
 * A repeatable `key:value` query parameter as an object: `scope=team:sales&scope=region:eu`. One value
 * arrives as a string, several as an array. A key given twice with two values can match nothing: refused.
 */
function pairs(what: "scope" | "metadata", key: z.ZodString, value: z.ZodString, max: number) {
  return z
    .preprocess(
      (input) => (typeof input === "string" ? [input] : input),
      z
        .array(z.string({ error: "must be a string" }), { error: `must be ${PAIR_FORM}` })
        .max(max, `at most ${max} ${what} pairs`),
    )
    .transform((items, ctx) => {
      const object: Record<string, string> = {};
      items.forEach((item, index) => {
        const colon = item.indexOf(":");
        if (colon <= 0) {
          ctx.addIssue({ code: "custom", message: `"${item}" is not of the form key:value`, path: [index] });
          return;
        }
        const name = key.safeParse(item.slice(0, colon));
        const given = value.safeParse(item.slice(colon + 1));
        if (!name.success || !given.success) {
          const problems = [
            ...(name.success ? [] : name.error.issues.map((issue) => `key: ${issue.message}`)),
            ...(given.success ? [] : given.error.issues.map((issue) => `value: ${issue.message}`)),
          ];
          ctx.addIssue({ code: "custom", message: problems.join("; "), path: [index] });
          return;
        }
        if (Object.hasOwn(object, name.data) && object[name.data] !== given.data) {
          ctx.addIssue({
            code: "custom",
            message: `${what} ${name.data} is given twice with different values (a memory has one value per key)`,
            path: [index],
          });
          return;
        }
        object[name.data] = given.data;
      });
      return object;
    })
    .describe(PAIR_FORM);
}

const ScopeKey = identifier().min(1, "must not be empty").max(64, "must be at most 64 characters");
const ScopeValue = identifier().min(1, "must not be empty").max(255, "must be at most 255 characters");
const MetadataKey = identifier({ min: 1, max: 128, lengthMessage: "must be 1 to 128 characters" });

/** The longest cursor this API hands out is about 200 characters: anything far longer is not one of them. */
const CURSOR_MAX = 1_000;

export const ListMemoriesQuery = z
  .strictObject({
    namespace_id: TargetId.optional(),
    external_reference_id: TargetId.optional(),
    identity_id: IdentityId.optional().describe("only memories about this identity"),
    session_id: SessionId.optional().describe(
      "only the turns of this conversation, in their order (position ascending) instead of newest first",
    ),
    scope: pairs("scope", ScopeKey, ScopeValue, LIMITS.scopePairs)
      .optional()
      .describe(`only memories carrying this scope pair, as ${PAIR_FORM}`),
    metadata: pairs("metadata", MetadataKey, text({ max: 1_000 }), LIMITS.metadataKeys)
      .optional()
      .describe(
        `only memories whose metadata has this string value, as ${PAIR_FORM} ` +
          "(query values are strings: a number 3 is not the string 3; recall and forget take typed JSON values)",
      ),
    cursor: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(CURSOR_MAX, "is not a cursor this API made")
      .optional()
      .describe("pagination.nextCursor of the previous page; omit it for the first page"),
    page_size: PaginationQuery.shape.page_size,
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type ListMemoriesQuery = z.infer<typeof ListMemoriesQuery>;

/**
 * Where a page ends: the last memory listed (its place in the listing's order: when it was stored, its
 * conversation and position, its id), and the number of the page that follows it.
 */
interface CursorPosition {
  createdAt: Date;
  sessionId: string | null;
  position: number | null;
  id: string;
  page: number;
}

export interface ListOptions {
  /**
   * Count the matching memories only up to this many (the console's explorer): an exact count reads every
   * matching row, about 150 ms for 100,000 memories on the embedded database, while the page itself is
   * a millisecond of index scan. The API counts exactly (its pagination object promises `total`).
   */
  countUpTo?: number;
}

export interface MemoryPage {
  namespace: { id: string; name: string };
  items: MemoryRow[];
  total: number;
  /** With `countUpTo`: there are more than `total` (which is then that bound). */
  totalIsAtLeast: boolean;
  /** 1 for the first page, then one more for every nextCursor followed (carried inside the cursor). */
  page: number;
  pageSize: number;
  nextCursor: string | null;
}

/**
 * One page of a namespace's memories within the principal's scopes and the filters asked for, newest first:
 * `created_at` descending. What one call stored shares its `created_at`: a conversation's turns are then
 * in their order (position ascending, as they were said), and any other tie is broken by session, then id
 * descending, so the order is the same on every read and every page. With `session_id`, the conversation's
 * turns from its first (position ascending), whichever call stored them. Keyset pagination: the cursor is
 * where the last memory of the previous page stands in that order, so a page costs the same at the end of
 * 100,000 memories as at the start, and a memory written meanwhile never shifts the pages (new ones appear
 * on the first page).
 * The cursor is signed and bound to the organization, namespace and filters it was made for: a
 * malformed, altered or borrowed cursor is refused (400), never trusted.
 */
export async function listMemories(
  principal: Principal,
  query: ListMemoriesQuery,
  activity: ActivityNote = {},
  options: ListOptions = {},
): Promise<MemoryPage> {
  const namespace = await resolveTarget(principal, query);
  activity.namespaceId = namespace.id;
  activity.identityId = query.identity_id;
  const scopes = effectiveScopes(principal.scopes, query.scope);
  const filter = {
    orgId: principal.orgId,
    namespaceId: namespace.id,
    scopes,
    identityId: query.identity_id,
    metadata: query.metadata,
    sessionId: query.session_id,
  };
  const listing = memoryListingFingerprint(filter);
  const position = query.cursor === undefined ? undefined : readCursor(query.cursor, listing, principal.orgId);

  const where = memoryFilter(filter, "m");
  const order = query.session_id === undefined ? newestFirst(position) : conversationOrder(position);
  const prisma = await db();
  const [rows, [{ total }]] = await Promise.all([
    prisma.$queryRaw<RawMemory[]>(
      Prisma.sql`SELECT m.id, m.namespace_id, m.content, m.metadata, m.scopes, m.identity_id, m.chunk_count,
              m.session_id, m.session_position, m.role, m.occurred_at, m.expires_at, m.version,
              m.created_at, m.updated_at, m.valid_at, m.invalid_at, m.superseded_by, m.supersession, m.fact_key,
              m.kind, m.derived_from, m.inference,
              ARRAY(SELECT s.id FROM memories s WHERE s.org_id = m.org_id AND s.superseded_by = m.id
                    ORDER BY s.valid_at, s.id) AS supersedes
       FROM memories m WHERE ${where}${order.after}
       ORDER BY ${order.by} LIMIT ${query.page_size + 1}`,
    ),
    prisma.$queryRaw<{ total: number }[]>(
      options.countUpTo === undefined
        ? Prisma.sql`SELECT count(*)::int AS total FROM memories m WHERE ${where}`
        : Prisma.sql`SELECT count(*)::int AS total
           FROM (SELECT 1 FROM memories m WHERE ${where} LIMIT ${options.countUpTo + 1}) capped`,
    ),
  ]);
  const capped = options.countUpTo !== undefined && total > options.countUpTo;
  const items = rows.slice(0, query.page_size).map(memoryRow);
  const page = position?.page ?? 1;
  const last = items[items.length - 1];
  const nextCursor =
    rows.length > query.page_size
      ? writeCursor(
          {
            createdAt: last.createdAt,
            sessionId: last.sessionId,
            position: last.sessionPosition,
            id: last.id,
            page: page + 1,
          },
          listing,
          principal.orgId,
        )
      : null;
  return {
    namespace: { id: namespace.id, name: namespace.name },
    items,
    total: capped ? options.countUpTo! : total,
    totalIsAtLeast: capped,
    page,
    pageSize: query.page_size,
    nextCursor,
  };
}

/**
 * Newest first, ties as listMemories says. A memory without a session sorts as the session "" and position
 * -1 (neither is a value a turn can have); the position is negated so that every column runs descending and
 * one row comparison says "after the cursor". The bound on created_at is spelled out on its own, so the
 * (namespace_id, created_at) index bounds the scan.
 */
function newestFirst(position: CursorPosition | undefined) {
  const by = Prisma.sql`m.created_at DESC, COALESCE(m.session_id, '') DESC, -COALESCE(m.session_position, -1) DESC,
                        m.id DESC`;
  if (!position) return { by, after: Prisma.empty };
  const at = position.createdAt.toISOString();
  const after = Prisma.sql` AND m.created_at <= ${at}::timestamptz
    AND (m.created_at < ${at}::timestamptz
         OR (COALESCE(m.session_id, ''), -COALESCE(m.session_position, -1), m.id)
            < (${position.sessionId ?? ""}, ${-(position.position ?? -1)}::int, ${position.id}))`;
  return { by, after };
}

/** One conversation from its first turn: position ascending (the (namespace_id, session_id, position) index). */
function conversationOrder(position: CursorPosition | undefined) {
  const by = Prisma.sql`m.session_position ASC, m.id ASC`;
  if (!position) return { by, after: Prisma.empty };
  const after = Prisma.sql` AND (m.session_position, m.id) > (${position.position ?? -1}::int, ${position.id})`;
  return { by, after };
}

interface RawMemory {
  id: string;
  namespace_id: string;
  content: string;
  metadata: unknown;
  scopes: unknown;
  identity_id: string | null;
  chunk_count: number;
  session_id: string | null;
  session_position: number | null;
  role: string | null;
  occurred_at: Date;
  expires_at: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  valid_at: Date;
  invalid_at: Date | null;
  superseded_by: string | null;
  supersession: unknown;
  fact_key: string | null;
  supersedes: string[];
  kind: string;
  derived_from: string[];
  inference: unknown;
}

function memoryRow(row: RawMemory): MemoryRow {
  return {
    id: row.id,
    namespaceId: row.namespace_id,
    content: row.content,
    metadata: row.metadata,
    scopes: row.scopes,
    identityId: row.identity_id,
    chunkCount: row.chunk_count,
    sessionId: row.session_id,
    sessionPosition: row.session_position,
    role: row.role,
    occurredAt: new Date(row.occurred_at),
    expiresAt: row.expires_at ? new Date(row.expires_at) : null,
    version: row.version,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    validAt: new Date(row.valid_at),
    invalidAt: row.invalid_at ? new Date(row.invalid_at) : null,
    supersededBy: row.superseded_by,
    supersession: row.supersession,
    factKey: row.fact_key,
    supersedes: row.supersedes,
    kind: row.kind,
    derivedFrom: row.derived_from,
    inference: row.inference,
  };
}

/** What a cursor is valid for: the same organization, namespace and filters (the page size may change). */
function memoryListingFingerprint(filter: {
  orgId: string;
  namespaceId: string;
  scopes: Scopes;
  identityId?: string;
  metadata?: Record<string, unknown>;
  sessionId?: string;
}): string {
  return listingFingerprint([
    filter.orgId,
    filter.namespaceId,
    filter.scopes,
    filter.identityId ?? null,
    filter.metadata ?? {},
    // Absent for a listing without a session, so the cursors of those stay what they were.
    ...(filter.sessionId === undefined ? [] : [{ session_id: filter.sessionId }]),
  ]);
}

const cursors = signedCursors(
  "list-memories",
  z.strictObject({
    t: z.number().int().nonnegative(),
    // Absent in a cursor made before conversations were ordered: read as a memory without a session.
    s: z.string().min(1).max(255).nullable().default(null),
    n: z.number().int().nonnegative().nullable().default(null),
    i: z.string().min(1).max(255),
    p: z.number().int().min(2),
    l: z.string(),
  }),
);

function writeCursor(position: CursorPosition, listing: string, orgId: string): string {
  return cursors.write(
    {
      t: position.createdAt.getTime(),
      s: position.sessionId,
      n: position.position,
      i: position.id,
      p: position.page,
      l: listing,
    },
    orgId,
  );
}

/** The position a cursor of this listing names, or a 400 saying why it cannot be used. */
function readCursor(cursor: string, listing: string, orgId: string): CursorPosition {
  const { t, s: sessionId, n: position, i: id, p: page } = cursors.read(cursor, listing, orgId);
  return { createdAt: new Date(t), sessionId, position, id, page };
}

export interface MemoryChunkRow {
  id: string;
  position: number;
  content: string;
}

/**
 * One memory of a namespace with its chunks in order (the console's memory detail): the same visibility
 * as getMemory (namespaces the principal may see, within its scopes, not expired), and not found when the
 * memory is in another namespace than the one named.
 */
export async function getMemoryWithChunks(principal: Principal, namespaceId: string, memoryId: string) {
  const prisma = await db();
  const memory = await prisma.memory.findFirst({
    where: {
      id: memoryId,
      orgId: principal.orgId,
      namespaceId,
      namespace: namespaceAccess(principal),
      AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
      // Expired: never shown, also before the sweep deletes it.
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
    },
  });
  if (!memory) throw notFound(`Memory ${memoryId}`);
  const chunks = await prisma.$queryRaw<MemoryChunkRow[]>(
    Prisma.sql`SELECT id, position, content FROM memory_chunks
     WHERE org_id = ${principal.orgId} AND namespace_id = ${namespaceId} AND memory_id = ${memoryId} ORDER BY position`,
  );
  return { memory, chunks };
}
