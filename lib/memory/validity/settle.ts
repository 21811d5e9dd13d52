import type { Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MemoryRow } from "../common/schemas";
import { notExpiredSql } from "../common/sql";
import { inferSupersession } from "./inference";
import { closeNamed, placeInSlot } from "./slots";
import type { Closing, Supersession } from "./supersession";

/** A memory remember has just inserted (its chunks not yet), with what it says of validity. */
export interface WrittenStatement {
  id: string;
  identityId: string | null;
  scopes: Scopes;
  content: string;
  validAt: Date;
  factKey: string | null;
  supersedes: string[];
  /** A conversation turn or a document's passage: never part of an inference. */
  turnOrPassage: boolean;
  /** The embedding of each chunk, in order. */
  vectors: number[][];
}

/**
 * 404 (as for a memory that does not exist) unless every memory named is in the namespace, carries the
 * principal's scopes and has not expired: a write may close only what its key can read. Before anything is
 * written.
 */
export async function assertReadable(principal: Principal, namespaceId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const prisma = await db();
  const found = await prisma.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT m.id FROM memories m
               WHERE m.org_id = ${principal.orgId} AND m.namespace_id = ${namespaceId} AND m.id = ANY(${ids}::text[])
                 AND m.scopes @> ${JSON.stringify(principal.scopes)}::jsonb AND ${Prisma.raw(notExpiredSql("m"))}`,
  );
  const readable = new Set(found.map((row) => row.id));
  const missing = ids.find((id) => !readable.has(id));
  if (missing !== undefined) throw notFound(`Memory ${missing} (named in supersedes)`);
}

/** What settling did to one new memory: what it replaced, and how it was closed itself (a late statement). */
export interface Settled {
  supersedes: string[];
  closing?: Closing;
}

/**
 * Settles what new memories say of validity, in their transaction, before their chunks are written (memories
 * are locked before the search statistics, as everywhere): the memories each names in `supersedes` are closed,
 * one with a fact_key takes its place in its slot, and one of an identity without either may be found to
 * restate an older statement (inferSupersession). Those named are closed as `namedBy` says (the caller's, or a chat
 * model's decision). By memory id; a memory closed itself has its chunks take its
 * validity once they are written (copyValidityToChunks).
 */
export async function settleValidity(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  written: WrittenStatement[],
  namedBy: Supersession = { kind: "named" },
): Promise<Map<string, Settled>> {
  const closings: Closing[] = [];
  for (const memory of written) {
    closings.push(...(await closeNamed(tx, orgId, memory, memory.supersedes, namedBy)));
    if (memory.factKey !== null) {
      closings.push(...(await placeInSlot(tx, orgId, { ...memory, namespaceId, factKey: memory.factKey })));
    } else if (
      memory.supersedes.length === 0 &&
      memory.identityId !== null &&
      !memory.turnOrPassage &&
      memory.vectors.length === 1
    ) {
      const inferred = { ...memory, namespaceId, identityId: memory.identityId, vector: memory.vectors[0] };
      closings.push(...(await inferSupersession(tx, orgId, inferred)));
    }
  }
  return new Map(
    written.map((memory) => [
      memory.id,
      {
        supersedes: closings.filter((c) => c.supersededBy === memory.id).map((c) => c.memoryId),
        closing: closings.findLast((c) => c.memoryId === memory.id),
      },
    ]),
  );
}

/** Gives the chunks of memories their memory's validity (after settleValidity closed one before they existed). */
export async function copyValidityToChunks(tx: Tx, orgId: string, memoryIds: string[]): Promise<void> {
  await tx.$executeRaw(
    Prisma.sql`UPDATE memory_chunks c SET invalid_at = m.invalid_at, superseded_by = m.superseded_by,
                      supersession_kind = m.supersession->>'kind'
               FROM memories m
               WHERE m.org_id = ${orgId} AND m.id = ANY(${memoryIds}::text[])
                 AND c.org_id = ${orgId} AND c.memory_id = m.id`,
  );
}

/** A stored row as settling left it: what it replaced, and its own closing (a late statement). */
export function withSettled(row: MemoryRow, settled: Map<string, Settled>): MemoryRow {
  const outcome = settled.get(row.id);
  if (!outcome) return row;
  const { closing } = outcome;
  return {
    ...row,
    supersedes: outcome.supersedes,
    ...(closing && {
      invalidAt: closing.invalidAt,
      supersededBy: closing.supersededBy,
      supersession: closing.supersession,
    }),
  };
}
