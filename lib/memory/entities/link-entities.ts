// A memory's entities are written with it, in its transaction, and go with it: link on remember, import and a
// change of content, speaker or time; unlink (with every entity no other memory mentions) on each deletion.
// Every change of a namespace's entities takes the namespace's statistics lock first (as remember and forget
// do), after the memories it changes are locked: merges into entities and aliases are decided one at a time.
import { scopesContain, type Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";
import {
  confirmedEntities,
  ENTITY_EXTRACTOR_VERSION,
  entityKey,
  extractEntities,
  type ExtractedEntity,
} from "./extract-entities";
import { lockNamespaceStatistics } from "@/lib/namespaces/statistics-lock";

export interface EntitySource {
  id: string;
  content: string;
  role: string | null;
  occurredAt: Date;
  /** Who may read it: a short name merges into a speaker's full name only where that name is as readable. */
  scopes: Scopes;
}

/** A short form merges into a full name only when it is this long at least ("Mel", not "M"). */
const MIN_SHORT_FORM = 3;

/**
 * Extracts the entities of new (or rewritten) memories and links them, merging each mention into the
 * namespace's entity of the same key or alias, and a one-word person's name into the one speaker whose name
 * it begins ("Mel" → "Melanie") when exactly one speaker's does, or else into the one person whose full name
 * it is the first or last name of ("Priya" → "Priya Raman"). Records the extractor's version on each memory.
 */
export async function linkEntities(tx: Tx, orgId: string, namespaceId: string, memories: EntitySource[]) {
  if (memories.length === 0) return;
  // Which entity a mention merges into is decided from what the namespace holds now: two writers deciding at
  // once, neither seeing the other's entities, stored "mel" both as an entity and as Melanie's alias.
  await lockNamespaceStatistics(tx, namespaceId);
  const extracted = confirmedEntities(
    memories.map((memory) => ({
      entities: extractEntities(memory.content, { occurredAt: memory.occurredAt, speaker: memory.role, orgId }),
      scopes: memory.scopes,
    })),
  );
  const found = memories.map((memory, i) => ({ memoryId: memory.id, entities: extracted[i] }));
  const speakers = new Set(
    found.flatMap((f, i) =>
      f.entities.filter((e) => e.kind === "person" && memories[i].role?.trim() === e.name).map((e) => e.key),
    ),
  );
  const candidates = new Map<string, ExtractedEntity & { speaker: boolean }>();
  for (const entity of found.flatMap((f) => f.entities)) {
    const known = candidates.get(entity.key);
    if (!known) candidates.set(entity.key, { ...entity, speaker: speakers.has(entity.key) });
    else if (known.kind === "other") known.kind = entity.kind;
  }
  const keyOf = await resolveAliases(tx, namespaceId, [...candidates.values()], memories, found);
  // Sorted, so that two writers upserting the same entities take their row locks in one order.
  const rows = [...candidates.values()]
    .filter((c) => keyOf.get(c.key) === c.key)
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((c) => ({ id: newId("ent"), kind: c.kind, name: c.name, key: c.key, speaker: c.speaker }));
  const ids = new Map<string, string>();
  if (rows.length > 0) {
    const upserted = await tx.$queryRaw<{ id: string; key: string }[]>(
      Prisma.sql`INSERT INTO entities (id, org_id, namespace_id, kind, name, key, speaker)
                 SELECT r.id, ${orgId}, ${namespaceId}, r.kind, r.name, r.key, r.speaker
                 FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                      AS r(id text, kind text, name text, key text, speaker boolean)
                 ON CONFLICT (namespace_id, key) DO UPDATE
                   SET kind = CASE WHEN entities.kind = 'other' THEN EXCLUDED.kind ELSE entities.kind END,
                       speaker = entities.speaker OR EXCLUDED.speaker
                 RETURNING id, key`,
    );
    for (const row of upserted) ids.set(row.key, row.id);
  }
  const aliased = [...candidates.keys()].filter((key) => keyOf.get(key) !== key);
  if (aliased.length > 0) {
    // One row per entity: an UPDATE joined to two rows for one entity ("tomasz" and "wolski" for "tomasz wolski")
    // changes it once, with one of them.
    const merged = await tx.$queryRaw<{ id: string; key: string }[]>(
      Prisma.sql`WITH wanted AS (
                   SELECT a.target, array_agg(a.alias) AS aliases FROM jsonb_to_recordset(${JSON.stringify(
                     aliased.map((alias) => ({ alias, target: keyOf.get(alias) })),
                   )}::jsonb) AS a(alias text, target text)
                   GROUP BY a.target
                 )
                 UPDATE entities e
                 SET aliases = e.aliases || ARRAY(SELECT x FROM unnest(w.aliases) AS x WHERE NOT x = ANY(e.aliases))
                 FROM wanted w
                 WHERE e.org_id = ${orgId} AND e.namespace_id = ${namespaceId} AND e.key = w.target
                 RETURNING e.id, e.key`,
    );
    const idOfKey = new Map(merged.map((row) => [row.key, row.id]));
    for (const alias of aliased) {
      const id = idOfKey.get(keyOf.get(alias)!);
      if (id) ids.set(alias, id);
    }
  }
  const links = new Map<string, { memory_id: string; entity_id: string; mentions: number }>();
  for (const { memoryId, entities } of found) {
    for (const entity of entities) {
      const entityId = ids.get(entity.key);
      if (!entityId) continue;
      const link = links.get(`${memoryId} ${entityId}`);
      if (link) link.mentions += entity.mentions;
      else
        links.set(`${memoryId} ${entityId}`, { memory_id: memoryId, entity_id: entityId, mentions: entity.mentions });
    }
  }
  if (links.size > 0)
    await tx.$executeRaw(
      Prisma.sql`INSERT INTO memory_entities (memory_id, entity_id, org_id, namespace_id, mentions)
                 SELECT l.memory_id, l.entity_id, ${orgId}, ${namespaceId}, l.mentions
                 FROM jsonb_to_recordset(${JSON.stringify([...links.values()])}::jsonb)
                      AS l(memory_id text, entity_id text, mentions int)
                 ON CONFLICT (memory_id, entity_id)
                   DO UPDATE SET mentions = memory_entities.mentions + EXCLUDED.mentions`,
    );
  await tx.$executeRaw(
    Prisma.sql`UPDATE memories SET entities_version = ${ENTITY_EXTRACTOR_VERSION}
               WHERE org_id = ${orgId} AND namespace_id = ${namespaceId}
                 AND id = ANY(${memories.map((m) => m.id)}::text[])`,
  );
}

/**
 * The key each candidate is stored under: its own, the entity it is an alias of, or for a one-word person's
 * name, the one speaker of the namespace (or of this write) whose name it begins, else the one person of
 * several words whose first or last name it is. Two such names ("Priya Raman", "Priya Shah"): it stays apart.
 */
async function resolveAliases(
  tx: Tx,
  namespaceId: string,
  candidates: (ExtractedEntity & { speaker: boolean })[],
  memories: EntitySource[],
  found: { entities: ExtractedEntity[] }[],
): Promise<Map<string, string>> {
  const keys = candidates.map((c) => c.key);
  // The extractor knows common first names only: "Priya Raman" is a name of no known kind ("other").
  const maybePerson = (kind: string) => kind === "person" || kind === "other";
  const isShortForm = (c: ExtractedEntity) =>
    maybePerson(c.kind) && !c.key.includes(" ") && c.key.length >= MIN_SHORT_FORM;
  const shortForms = candidates.filter(isShortForm).map((c) => c.key);
  const existing = await tx.$queryRaw<{ key: string; aliases: string[]; speaker: boolean; kind: string }[]>(
    Prisma.sql`SELECT key, aliases, speaker, kind FROM entities
               WHERE namespace_id = ${namespaceId}
                 AND (key = ANY(${keys}::text[]) OR aliases && ${keys}::text[] OR speaker
                      OR (kind IN ('person', 'other') AND position(' ' in key) > 0
                          AND (split_part(key, ' ', 1) = ANY(${shortForms}::text[])
                               OR regexp_replace(key, '^.* ', '') = ANY(${shortForms}::text[]))))`,
  );
  const keyOf = new Map<string, string>();
  const known = new Set(existing.map((e) => e.key));
  const speakerKeys = new Set([
    ...existing.filter((e) => e.speaker).map((e) => e.key),
    ...candidates.filter((c) => c.speaker).map((c) => c.key),
  ]);
  const fullNames = new Set([
    ...existing.filter((e) => maybePerson(e.kind) && e.key.includes(" ")).map((e) => e.key),
    ...candidates.filter((c) => maybePerson(c.kind) && c.key.includes(" ")).map((c) => c.key),
  ]);
  const targets = new Map<string, string>();
  for (const candidate of candidates) {
    const aliasOf = existing.find((e) => e.aliases.includes(candidate.key));
    if (known.has(candidate.key) || candidate.speaker) continue;
    if (aliasOf) targets.set(candidate.key, aliasOf.key);
    else if (isShortForm(candidate)) {
      // A speaker's name is a person's, whatever the extractor made of a short form of it.
      const ofSpeaker =
        candidate.kind === "person"
          ? [...speakerKeys].filter((s) => s !== candidate.key && s.startsWith(candidate.key))
          : [];
      const names = (name: string) => name.split(" ");
      const ofFullName = [...fullNames].filter(
        (full) => names(full)[0] === candidate.key || names(full).at(-1) === candidate.key,
      );
      const target = ofSpeaker.length === 1 ? ofSpeaker : ofSpeaker.length === 0 ? ofFullName : [];
      if (target.length === 1) targets.set(candidate.key, target[0]);
    }
  }
  const readable = await fullNameReadable(tx, namespaceId, targets, memories, found);
  for (const candidate of candidates) {
    const target = targets.get(candidate.key);
    keyOf.set(candidate.key, target !== undefined && readable.has(candidate.key) ? target : candidate.key);
  }
  return keyOf;
}

/**
 * The short names whose merge into a full name shows nobody a name they may not read: every memory of this write
 * naming the short form must be readable only by those who can also read a memory naming the full name or said by
 * it (its scopes contain that memory's), in this write or stored. Otherwise a key with scopes listing the entity
 * of "Mel came by" would learn "Melanie" from a conversation outside them.
 */
async function fullNameReadable(
  tx: Tx,
  namespaceId: string,
  targets: Map<string, string>,
  memories: EntitySource[],
  found: { entities: ExtractedEntity[] }[],
): Promise<Set<string>> {
  if (targets.size === 0) return new Set();
  const needs = [...targets].map(([alias, speaker]) => ({
    alias,
    speaker,
    scopes: memories.filter((_, i) => found[i].entities.some((e) => e.key === alias)).map((m) => m.scopes),
  }));
  const uncovered = needs.flatMap((need) =>
    need.scopes
      .filter(
        (scopes) =>
          !memories.some(
            (m, i) =>
              ((m.role !== null && entityKey(m.role) === need.speaker) ||
                found[i].entities.some((e) => e.key === need.speaker)) &&
              scopesContain(m.scopes, scopes),
          ),
      )
      .map((scopes) => ({ alias: need.alias, speaker: need.speaker, scopes })),
  );
  const stored =
    uncovered.length === 0
      ? []
      : await tx.$queryRaw<{ n: number }[]>(
          Prisma.sql`SELECT u.n::int AS n
                     FROM jsonb_array_elements(${JSON.stringify(uncovered)}::jsonb) WITH ORDINALITY AS u(need, n)
                     WHERE EXISTS (
                       SELECT 1 FROM entities e
                       JOIN memory_entities l ON l.entity_id = e.id
                       JOIN memories p ON p.id = l.memory_id
                       WHERE e.namespace_id = ${namespaceId} AND e.key = u.need->>'speaker'
                         AND l.namespace_id = ${namespaceId} AND p.namespace_id = ${namespaceId}
                         AND p.scopes @> (u.need->'scopes'))`,
        );
  const coveredByStored = new Set(stored.map((row) => row.n - 1));
  const blocked = new Set(uncovered.filter((_, i) => !coveredByStored.has(i)).map((u) => u.alias));
  return new Set(needs.map((need) => need.alias).filter((alias) => !blocked.has(alias)));
}

/**
 * Removes the entity links of memories about to be deleted or rewritten, and every entity that no other
 * memory mentions: no orphan is left for a list to show.
 */
export async function unlinkEntities(tx: Tx, orgId: string, namespaceId: string, memoryIds: string[]) {
  if (memoryIds.length === 0) return;
  await lockNamespaceStatistics(tx, namespaceId);
  await dropUnlinkedEntities(tx, orgId, namespaceId, await deleteLinks(tx, orgId, namespaceId, memoryIds));
}

/**
 * Extracts the entities of memories again (a newer extractor): their links are replaced, an entity they still
 * name keeps its id (a client may hold it), and one that nothing names any more goes.
 */
export async function relinkEntities(tx: Tx, orgId: string, namespaceId: string, memories: EntitySource[]) {
  if (memories.length === 0) return;
  await lockNamespaceStatistics(tx, namespaceId);
  const previous = await deleteLinks(
    tx,
    orgId,
    namespaceId,
    memories.map((m) => m.id),
  );
  await linkEntities(tx, orgId, namespaceId, memories);
  await dropUnlinkedEntities(tx, orgId, namespaceId, previous);
}

/** Deletes the links of these memories; returns the entities they pointed to. */
async function deleteLinks(tx: Tx, orgId: string, namespaceId: string, memoryIds: string[]): Promise<string[]> {
  const gone = await tx.$queryRaw<{ entity_id: string }[]>(
    Prisma.sql`DELETE FROM memory_entities
               WHERE org_id = ${orgId} AND namespace_id = ${namespaceId} AND memory_id = ANY(${memoryIds}::text[])
               RETURNING entity_id`,
  );
  return [...new Set(gone.map((g) => g.entity_id))];
}

/**
 * Deletes those of these entities no memory links to. Each is locked first, in key order as linkEntities
 * upserts them: a writer linking a memory to one of them (it holds the row from its upsert to its commit) is
 * waited for, and the check that follows, a statement of its own, sees its link. In one statement the check
 * would read the snapshot taken before the wait and delete an entity just linked (with its link, by cascade).
 */
async function dropUnlinkedEntities(tx: Tx, orgId: string, namespaceId: string, entityIds: string[]) {
  if (entityIds.length === 0) return;
  await tx.$queryRaw(
    Prisma.sql`SELECT id FROM entities
               WHERE org_id = ${orgId} AND namespace_id = ${namespaceId} AND id = ANY(${entityIds}::text[])
               ORDER BY key FOR UPDATE`,
  );
  await tx.$executeRaw(
    Prisma.sql`DELETE FROM entities e
               WHERE e.org_id = ${orgId} AND e.namespace_id = ${namespaceId} AND e.id = ANY(${entityIds}::text[])
                 AND NOT EXISTS (SELECT 1 FROM memory_entities l WHERE l.entity_id = e.id)`,
  );
}
