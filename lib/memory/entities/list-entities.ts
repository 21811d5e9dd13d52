// Listing a namespace's entities, most mentioned first, a page at a time: GET /api/v1/entities, the MCP tool
// list_entities and the console's Entities tab (one implementation for all).
import { z } from "zod";
import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { PaginationQuery } from "@/lib/http/pagination";
import { text } from "@/lib/validation/strings";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { exactlyOneTarget, TARGET_RULE, TargetId } from "@/lib/validation/target";
import { entityListingFingerprint, readEntityCursor, writeEntityCursor } from "./entity-cursor";
import {
  containsPattern,
  ENTITY_COLUMNS,
  entityJson,
  visibleLinks,
  type EntityJson,
  type EntityRow,
} from "./entity-json";
import type { EntityKind } from "../common/entity-kinds";
import { EntityKindSchema } from "../common/entity-ref";

/** The longest cursor this listing hands out is about 300 characters: anything far longer is not one of them. */
const CURSOR_MAX = 1_000;
export const ENTITY_SEARCH_MAX = 200;

const Search = text({ max: ENTITY_SEARCH_MAX }).describe(
  "a part of the name or of an alias, any case (`%` and `_` are plain characters)",
);
const Cursor = z
  .string({ error: "must be a string" })
  .min(1, "must not be empty")
  .max(CURSOR_MAX, "is not a cursor this API made")
  .describe("pagination.nextCursor of the previous page; omit it for the first page");

export const ListEntitiesQuery = z
  .strictObject({
    namespace_id: TargetId.optional(),
    external_reference_id: TargetId.optional(),
    kind: EntityKindSchema.optional().describe("only entities of this kind"),
    q: Search.optional(),
    cursor: Cursor.optional(),
    page_size: PaginationQuery.shape.page_size,
  })
  .superRefine(exactlyOneTarget)
  .meta(TARGET_RULE);
export type ListEntitiesQuery = z.infer<typeof ListEntitiesQuery>;

/** What listEntities is called with (the console passes it as is; the API from ListEntitiesQuery). */
export interface ListEntitiesInput {
  namespaceId?: string;
  externalReferenceId?: string;
  kind?: EntityKind | string;
  q?: string;
  cursor?: string;
  /** Entities per page, 1 to 100 (default 20). */
  limit?: number;
}

export interface EntityPage {
  namespace: { id: string; name: string };
  items: EntityJson[];
  /** Entities the filters match now, within what the principal may see. */
  total: number;
  /** 1 for the first page, then one more for every nextCursor followed (carried inside the cursor). */
  page: number;
  pageSize: number;
  nextCursor: string | null;
}

/** The API's query as listEntities' input. */
export function listEntitiesInput(query: ListEntitiesQuery): ListEntitiesInput {
  return {
    namespaceId: query.namespace_id,
    externalReferenceId: query.external_reference_id,
    kind: query.kind,
    q: query.q,
    cursor: query.cursor,
    limit: query.page_size,
  };
}

/**
 * One page of the entities of a namespace the principal may see, by how many of its visible memories
 * mention them (descending), then name and id, so that the order is the same on every read. Counts and
 * first/last mention come from the memories within the principal's scopes (and not expired); an entity that
 * only memories outside them mention is not listed. `q` finds a part of the name or of an alias, any case.
 * Keyset pagination: the cursor holds where the last entity stood, signed and bound to the listing.
 */
export async function listEntities(
  principal: Principal,
  input: ListEntitiesInput,
  activity: ActivityNote = {},
): Promise<EntityPage> {
  const parsed = ListEntitiesQuery.safeParse({
    namespace_id: input.namespaceId,
    external_reference_id: input.externalReferenceId,
    kind: input.kind,
    q: input.q,
    cursor: input.cursor,
    page_size: input.limit,
  });
  if (!parsed.success) throw invalidRequest(parsed.error.issues, "query");
  const query = parsed.data;
  const namespace = await resolveTarget(principal, query);
  activity.namespaceId = namespace.id;
  const search = query.q?.trim() || undefined;
  const listing = entityListingFingerprint([
    principal.orgId,
    namespace.id,
    principal.scopes,
    query.kind ?? null,
    search ?? null,
  ]);
  const position = query.cursor === undefined ? undefined : readEntityCursor(query.cursor, listing, principal.orgId);

  const conditions = [Prisma.sql`TRUE`];
  if (query.kind) conditions.push(Prisma.sql`e.kind = ${query.kind}`);
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(
      Prisma.sql`(e.name ILIKE ${pattern} ESCAPE '\\' OR e.key ILIKE ${pattern} ESCAPE '\\'
                  OR EXISTS (SELECT 1 FROM unnest(e.aliases) AS a(alias) WHERE a.alias ILIKE ${pattern} ESCAPE '\\'))`,
    );
  }
  const links = visibleLinks(
    { orgId: principal.orgId, namespaceId: namespace.id, scopes: principal.scopes },
    Prisma.join(conditions, " AND "),
  );
  const after = position
    ? Prisma.sql`WHERE v.memory_count < ${position.memoryCount}::int
        OR (v.memory_count = ${position.memoryCount}::int AND (e.name, e.id) > (${position.name}, ${position.id}))`
    : Prisma.empty;
  const prisma = await db();
  const [rows, [{ total }]] = await Promise.all([
    prisma.$queryRaw<EntityRow[]>(
      Prisma.sql`WITH v AS (${links})
        SELECT ${ENTITY_COLUMNS} FROM v JOIN entities e ON e.id = v.entity_id
        ${after}
        ORDER BY v.memory_count DESC, e.name, e.id
        LIMIT ${query.page_size + 1}`,
    ),
    prisma.$queryRaw<{ total: number }[]>(Prisma.sql`SELECT count(*)::int AS total FROM (${links}) v`),
  ]);
  const items = rows.slice(0, query.page_size).map(entityJson);
  const page = position?.page ?? 1;
  const last = items[items.length - 1];
  const nextCursor =
    rows.length > query.page_size
      ? writeEntityCursor(
          { memoryCount: last.memory_count, name: last.name, id: last.id, page: page + 1 },
          listing,
          principal.orgId,
        )
      : null;
  return {
    namespace: { id: namespace.id, name: namespace.name },
    items,
    total,
    page,
    pageSize: query.page_size,
    nextCursor,
  };
}
