import type { ActivityNote } from "@/lib/activity/activity";
import { requesterOf, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { ConflictError, notFound } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { keepAnswerWithWrite } from "@/lib/http/request-writes";
import { recordMemoryEvents } from "@/lib/event-recording/record-events";
import { newId } from "@/lib/ids";
import { chunkText } from "../store/chunking";
import { subtractTermStatistics } from "../store/deletion";
import { relinkEntities } from "../entities/link-entities";
import { embedder } from "../embeddings";
import { getMemory } from "../read/get-memory";
import { archiveCurrentVersion, authorOf, VERSIONED_FIELDS, type VersionedField } from "../store/history";
import { contentHash, expiryOf } from "./memory-fields";
import { memoryJson, type Metadata } from "../common/schemas";
import { effectiveScopes } from "../common/scopes";
import { chunkFields, CHUNKS_PER_STATEMENT, insertChunks, moveChunkScopes } from "../store/search-index";
import { noteSearchGrowth } from "../search/search-maintenance";
import { crashPoint } from "../store/write-intents";
import { patchValidity, validityChanged, type ValidityChanges } from "../validity/patch-validity";
import { canonicalJson } from "@/lib/http/canonical-json";

/** What PATCH /memories/{id} may change (PatchMemoryBody); an absent field stays as it is. */
export interface MemoryChanges extends ValidityChanges {
  content?: string;
  metadata?: Metadata;
  scopes?: Scopes;
  /** null clears it. */
  identity_id?: string | null;
  occurred_at?: string;
  /** null removes the expiry. */
  expires_at?: string | null;
  ttl_seconds?: number;
}

/** How often an update starts over when another one changed the memory between its read and its write. */
const UPDATE_ATTEMPTS = 3;

/** The fields remember's deduplication compares (an expiry takes a memory out of it). */
const DEDUPLICATED_BY: VersionedField[] = ["content", "scopes", "identity_id", "expires_at"];

/**
 * Changes a memory in place (same id) and keeps the version it replaces (lib/memory/store/history.ts), as
 * `principal` may: the memory must be one it can read (getMemory: granted namespace, its scopes, not
 * expired), and new scopes keep a key's own pairs (effectiveScopes: a contradiction is a 403). New content is
 * chunked and embedded before the transaction; otherwise nothing is embedded and the chunks keep their
 * vectors and postings, their copies of the memory's fields updated (a scopes change moves their term
 * statistics to the new scope signature). Values equal to the stored ones change nothing: the memory is
 * returned as it is, without a new version. An update that finds the memory changed meanwhile starts over.
 */
export async function updateMemory(
  principal: Principal,
  memoryId: string,
  changes: MemoryChanges,
  activity: ActivityNote = {},
) {
  for (let attempt = 1; ; attempt += 1) {
    const existing = await getMemory(principal, memoryId, activity);
    const now = new Date();
    const next = {
      content: changes.content ?? existing.content,
      metadata: changes.metadata ?? (existing.metadata as Metadata),
      scopes:
        changes.scopes === undefined ? (existing.scopes as Scopes) : effectiveScopes(principal.scopes, changes.scopes),
      identityId: changes.identity_id === undefined ? existing.identityId : changes.identity_id,
      occurredAt: changes.occurred_at === undefined ? existing.occurredAt : new Date(changes.occurred_at),
      expiresAt:
        changes.expires_at === undefined && changes.ttl_seconds === undefined
          ? existing.expiresAt
          : expiryOf(changes, now),
    };
    const changed = new Set<VersionedField>();
    if (next.content !== existing.content) changed.add("content");
    if (canonicalJson(next.metadata ?? {}) !== canonicalJson(existing.metadata ?? {})) changed.add("metadata");
    if (canonicalJson(next.scopes ?? {}) !== canonicalJson(existing.scopes ?? {})) changed.add("scopes");
    if (next.identityId !== existing.identityId) changed.add("identity_id");
    if (next.occurredAt.getTime() !== existing.occurredAt.getTime()) changed.add("occurred_at");
    if (next.expiresAt?.getTime() !== existing.expiresAt?.getTime()) changed.add("expires_at");
    const validity = validityChanged(existing, changes);
    if (changed.size === 0 && validity === undefined) return existing;
    const prisma = await db();
    if (changed.size === 0) {
      // Event time only: no new version of what the memory says, one short transaction.
      const updated = await prisma.$transaction(async (tx) => {
        if (!(await lockedUnchanged(tx, principal.orgId, existing))) return null;
        await patchValidity(tx, principal.orgId, existing, validity!);
        await recordMemoryEvents(tx, principal.orgId, "memory.updated", [memoryId], {
          changed_fields: Object.keys(validity!),
        });
        const row = await tx.memory.findFirstOrThrow({ where: { id: memoryId, orgId: principal.orgId } });
        await keepAnswerWithWrite(tx, 200, memoryJson(row));
        return row;
      });
      if (updated) return updated;
      if (attempt >= UPDATE_ATTEMPTS) throw changedMeanwhile(memoryId);
      continue;
    }

    const provider = embedder();
    const chunks = changed.has("content") ? chunkText(next.content) : [];
    const vectors = chunks.length > 0 ? await provider.embed(chunks, "ingest", requesterOf(principal)) : [];
    const updated = await prisma.$transaction(async (tx) => {
      if (!(await lockedUnchanged(tx, principal.orgId, existing))) return null;
      await archiveCurrentVersion(tx, principal.orgId, memoryId);
      const author = await authorOf(tx, principal);
      const row = await tx.memory.update({
        where: { id: memoryId, orgId: principal.orgId },
        data: {
          content: next.content,
          contentHash: contentHash(next.content),
          metadata: next.metadata,
          scopes: next.scopes,
          identityId: next.identityId,
          occurredAt: next.occurredAt,
          expiresAt: next.expiresAt,
          // A memory changed into another's twin is kept (an update is never deduplicated): it gives up its
          // place under deduplication (memories_unique_content_key) rather than take another's.
          ...(DEDUPLICATED_BY.some((field) => changed.has(field)) ? { uniqueContent: false } : {}),
          chunkCount: changed.has("content") ? chunks.length : existing.chunkCount,
          version: existing.version + 1,
          updatedAt: now,
        },
      });
      const changedFields = VERSIONED_FIELDS.filter((field) => changed.has(field));
      await tx.$executeRaw(
        Prisma.sql`UPDATE memories
                   SET version_author_kind = ${author.kind}, version_author_id = ${author.id},
                       version_author_name = ${author.name}, version_changed_fields = ${changedFields}::text[]
                   WHERE id = ${memoryId} AND org_id = ${principal.orgId}`,
      );
      await recordMemoryEvents(tx, principal.orgId, "memory.updated", [memoryId], { changed_fields: changedFields });
      const oldChunkIds = (
        await tx.$queryRaw<{ id: string }[]>(
          Prisma.sql`SELECT id FROM memory_chunks WHERE org_id = ${principal.orgId} AND memory_id = ${memoryId}`,
        )
      ).map((chunk) => chunk.id);
      if (changed.has("content")) {
        await subtractTermStatistics(tx, existing.namespaceId, oldChunkIds);
        await tx.$executeRaw(
          Prisma.sql`DELETE FROM memory_chunks WHERE org_id = ${principal.orgId} AND id = ANY(${oldChunkIds}::text[])`,
        );
        const rows = chunks.map((content, position) => ({
          id: newId("chk"),
          memory_id: memoryId,
          position,
          content,
          ...chunkFields(row),
          embedding: vectors[position],
        }));
        for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
          const statement = rows.slice(i, i + CHUNKS_PER_STATEMENT);
          await insertChunks(tx, principal.orgId, existing.namespaceId, provider.model, now, statement);
        }
      } else {
        if (changed.has("scopes")) await moveChunkScopes(tx, existing.namespaceId, oldChunkIds, next.scopes);
        await tx.$executeRaw(
          Prisma.sql`UPDATE memory_chunks
                     SET metadata = ${JSON.stringify(next.metadata)}::jsonb, identity_id = ${next.identityId},
                         occurred_at = ${next.occurredAt.toISOString()}::timestamptz,
                         expires_at = ${next.expiresAt?.toISOString() ?? null}::timestamptz
                     WHERE org_id = ${principal.orgId} AND namespace_id = ${existing.namespaceId}
                       AND memory_id = ${memoryId}`,
        );
      }
      // What a memory names, and the dates it resolves, follow its content and the time it happened; its scopes
      // too: who may read it bounds which names its mentions merge into (link-entities.ts).
      if (changed.has("content") || changed.has("occurred_at") || changed.has("scopes")) {
        await relinkEntities(tx, principal.orgId, existing.namespaceId, [
          { id: memoryId, content: next.content, role: row.role, occurredAt: next.occurredAt, scopes: next.scopes },
        ]);
      }
      if (validity) await patchValidity(tx, principal.orgId, existing, validity);
      const answered = validity
        ? await tx.memory.findFirstOrThrow({ where: { id: memoryId, orgId: principal.orgId } })
        : row;
      await keepAnswerWithWrite(tx, 200, memoryJson(answered));
      crashPoint("update.in-transaction");
      return answered;
    });
    if (updated) {
      if (changed.has("content")) noteSearchGrowth(updated.namespaceId, chunks.length);
      return updated;
    }
    if (attempt >= UPDATE_ATTEMPTS) throw changedMeanwhile(memoryId);
  }
}

const changedMeanwhile = (memoryId: string) =>
  new ConflictError(`Memory ${memoryId} is being changed by another request; try again.`);

/**
 * Locks the memory for the update; false when it changed since it was read (and checked against the principal's
 * scopes): the update starts over. 404 when it is gone or expired meanwhile.
 */
async function lockedUnchanged(
  tx: Tx,
  orgId: string,
  existing: { id: string; namespaceId: string; version: number },
): Promise<boolean> {
  const [locked] = await tx.$queryRaw<{ version: number; expired: boolean }[]>(
    Prisma.sql`SELECT version, (expires_at IS NOT NULL AND expires_at <= now()) AS expired FROM memories
               WHERE id = ${existing.id} AND org_id = ${orgId} AND namespace_id = ${existing.namespaceId}
               FOR UPDATE`,
  );
  if (!locked || locked.expired) throw notFound(`Memory ${existing.id}`);
  return locked.version === existing.version;
}
