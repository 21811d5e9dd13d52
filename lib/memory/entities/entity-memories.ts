// The memories that mention one entity, latest event first: the console's entity page. The same visibility as
// getEntity: an entity of a namespace the principal may use, memories within the principal's scopes, none
// expired; an entity that none of those mention is not found.
import type { Principal } from "@/lib/auth/principal";
import { namespaceAccess } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { invalidRequest, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { memoryFilter } from "../common/sql";
import { EntityIdParams } from "./get-entity";

/** The most an entity page lists; it says how many there are in all. */
export const ENTITY_MEMORIES_MAX = 100;

export interface EntityMemory {
  id: string;
  content: string;
  occurredAt: Date;
  sessionId: string | null;
  role: string | null;
  sessionPosition: number | null;
  /** How many times this memory mentions the entity. */
  mentions: number;
}

export interface EntityMemories {
  namespaceId: string;
  total: number;
  memories: EntityMemory[];
}

export async function entityMemories(
  principal: Principal,
  entityId: string,
  { limit = 50 }: { limit?: number } = {},
): Promise<EntityMemories> {
  const params = EntityIdParams.safeParse({ id: entityId });
  if (!params.success) throw invalidRequest(params.error.issues, "path");
  const take = Math.min(Math.max(1, Math.trunc(limit)), ENTITY_MEMORIES_MAX);
  const prisma = await db();
  const entity = await prisma.entity.findFirst({
    where: { id: entityId, orgId: principal.orgId, namespace: namespaceAccess(principal) },
    select: { id: true, namespaceId: true },
  });
  if (!entity) throw notFound(`Entity ${entityId}`);
  const filter = memoryFilter(
    { orgId: principal.orgId, namespaceId: entity.namespaceId, scopes: principal.scopes },
    "m",
  );
  const linked = Prisma.sql`FROM memory_entities l JOIN memories m ON m.id = l.memory_id
    WHERE l.entity_id = ${entity.id} AND l.org_id = ${principal.orgId} AND l.namespace_id = ${entity.namespaceId}
      AND ${filter}`;
  const [rows, [{ total }]] = await Promise.all([
    prisma.$queryRaw<
      {
        id: string;
        content: string;
        occurred_at: Date;
        session_id: string | null;
        role: string | null;
        session_position: number | null;
        mentions: number;
      }[]
    >(
      Prisma.sql`SELECT m.id, m.content, m.occurred_at, m.session_id, m.role, m.session_position, l.mentions
        ${linked} ORDER BY m.occurred_at DESC, m.id DESC LIMIT ${take}`,
    ),
    prisma.$queryRaw<{ total: number }[]>(Prisma.sql`SELECT count(*)::int AS total ${linked}`),
  ]);
  if (total === 0) throw notFound(`Entity ${entityId}`);
  return {
    namespaceId: entity.namespaceId,
    total,
    memories: rows.map((row) => ({
      id: row.id,
      content: row.content,
      occurredAt: new Date(row.occurred_at),
      sessionId: row.session_id,
      role: row.role,
      sessionPosition: row.session_position === null ? null : Number(row.session_position),
      mentions: Number(row.mentions),
    })),
  };
}
