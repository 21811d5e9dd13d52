// A memory's versions: the current one lives in `memories` (its author in the version_author_* columns), the
// earlier ones in `memory_versions` (migration 20261123121000_memory_versions), written when an update
// replaces them. Read by GET /memories/{id}/history and the namespace export; written by updates
// (lib/memory/write/update-memory.ts) and the namespace import.
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { InvalidError } from "@/lib/errors";
import { isoDateTime } from "@/lib/validation/dates";
import { identifier, text } from "@/lib/validation/strings";
import { IdentityId, LIMITS, Metadata } from "../common/schemas";
import { named } from "@/lib/validation/named";

/** The fields of a memory an update can change, as changed_fields names them. */
export const VERSIONED_FIELDS = ["content", "metadata", "scopes", "identity_id", "occurred_at", "expires_at"] as const;
export type VersionedField = (typeof VERSIONED_FIELDS)[number];

export const AUTHOR_KINDS = ["api_key", "user", "integration"] as const;

/** Who wrote a version, as they were named when they wrote it. */
export interface VersionAuthor {
  kind: (typeof AUTHOR_KINDS)[number];
  id: string | null;
  name: string | null;
}

export interface MemoryVersion {
  memoryId: string;
  version: number;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identityId: string | null;
  occurredAt: Date;
  expiresAt: Date | null;
  changedFields: string[];
  /** Null for a version whose author was not recorded (a memory stored before authors were). */
  changedBy: VersionAuthor | null;
  changedAt: Date;
}

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const VersionAuthorSchema = z.object({
  kind: z.enum(AUTHOR_KINDS).describe("an API key, a console user, or an integration's sync"),
  id: z.string().nullable().describe("the key's, user's or integration connection's id"),
  name: z.string().nullable().describe("its name then: the key's name, the user's email, the provider"),
});

export const MemoryVersionSchema = z.object({
  version: z.number().int().min(1).describe("1 for the memory as remembered, one more with each change"),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  scopes: z.record(z.string(), z.string()),
  identity_id: z.string().nullable(),
  occurred_at: Timestamp,
  expires_at: Timestamp.nullable(),
  changed_fields: z
    .array(z.string())
    .describe(`what this version changed against the one before it (${VERSIONED_FIELDS.join(", ")}); [] for version 1`),
  changed_by: VersionAuthorSchema.nullable().describe("who wrote this version; null when it was not recorded"),
  changed_at: Timestamp.describe("when this version was written"),
});
export type MemoryVersionJson = z.infer<typeof MemoryVersionSchema>;

export function versionJson(version: MemoryVersion): MemoryVersionJson {
  return {
    version: version.version,
    content: version.content,
    metadata: version.metadata,
    scopes: version.scopes,
    identity_id: version.identityId,
    occurred_at: version.occurredAt.toISOString(),
    expires_at: version.expiresAt?.toISOString() ?? null,
    changed_fields: version.changedFields,
    changed_by: version.changedBy,
    changed_at: version.changedAt.toISOString(),
  };
}

/** An instant as ISO 8601 (with a zone) — what an imported version's timestamps must be. */
const ImportedTimestamp = isoDateTime("must be an ISO 8601 date-time with a time zone");

/**
 * One version of a memory's history as the export writes it (MemoryVersionSchema) and the import accepts
 * it: the same limits as remembering it would have (a history line cannot smuggle in what remember refuses).
 */
export const ImportedVersionSchema = z.strictObject({
  version: z.number().int().min(1).max(2_147_483_647),
  content: text({ max: LIMITS.contentChars, notBlank: true }),
  metadata: Metadata,
  scopes: Scopes.refine((s) => Object.keys(s).length <= LIMITS.scopePairs, `at most ${LIMITS.scopePairs} scope pairs`),
  identity_id: IdentityId.nullable(),
  occurred_at: ImportedTimestamp,
  expires_at: ImportedTimestamp.nullable(),
  changed_fields: z.array(z.enum(VERSIONED_FIELDS)).max(VERSIONED_FIELDS.length),
  changed_by: z
    .strictObject({
      kind: z.enum(AUTHOR_KINDS),
      id: identifier({ max: 255 }).nullable(),
      name: identifier({ max: 320 }).nullable(),
    })
    .nullable(),
  changed_at: ImportedTimestamp,
});
export type ImportedVersion = z.infer<typeof ImportedVersionSchema>;

/** The author of what `principal` writes now, named as they are now (the name is kept with the version). */
export async function authorOf(tx: Tx, principal: Principal): Promise<VersionAuthor> {
  if (principal.kind === "api_key") return { kind: "api_key", id: principal.keyId, name: principal.name };
  if (principal.kind === "member") {
    const user = await tx.user.findUnique({ where: { id: principal.userId }, select: { email: true } });
    return { kind: "user", id: principal.userId, name: user?.email ?? null };
  }
  // A document's processing only inserts passages, which have no recorded author; named as the system is.
  if (principal.kind === "document") return { kind: "integration", id: principal.documentId, name: "document" };
  if (principal.kind === "inference") return { kind: "integration", id: principal.jobId, name: "chat model" };
  const connection = await tx.integrationConnection.findFirst({
    where: { id: principal.connectionId, orgId: principal.orgId },
    select: { provider: true },
  });
  return { kind: "integration", id: principal.connectionId, name: connection?.provider ?? null };
}

/**
 * The current version of memories (alias `m`) as history rows. A memory no update has touched has no
 * recorded author: it is the key that remembered it (api_key_id), or, stored by an integration's sync
 * (no key), the connection its metadata names.
 */
const CURRENT_VERSION_SQL = Prisma.sql`
  SELECT m.id AS memory_id, m.org_id, m.namespace_id, m.version, m.content, m.metadata, m.scopes, m.identity_id,
         m.occurred_at, m.expires_at,
         COALESCE(m.version_changed_fields, '{}'::text[]) AS changed_fields,
         a.kind AS author_kind, a.id AS author_id, a.name AS author_name, m.updated_at AS written_at
  FROM memories m
  LEFT JOIN LATERAL (
    SELECT m.version_author_kind AS kind, m.version_author_id AS id, m.version_author_name AS name
    WHERE m.version_author_kind IS NOT NULL
    UNION ALL
    SELECT 'api_key', m.api_key_id, (SELECT k.name FROM api_keys k WHERE k.id = m.api_key_id AND k.org_id = m.org_id)
    WHERE m.version_author_kind IS NULL AND m.api_key_id IS NOT NULL
    UNION ALL
    SELECT 'integration', m.metadata->>'connection_id',
           COALESCE((SELECT c.provider FROM integration_connections c
                     WHERE c.id = m.metadata->>'connection_id' AND c.org_id = m.org_id), m.metadata->>'source')
    WHERE m.version_author_kind IS NULL AND m.api_key_id IS NULL AND m.metadata ? 'connection_id'
  ) a ON true`;

const EARLIER_VERSIONS_SQL = Prisma.sql`
  SELECT v.memory_id, v.org_id, v.namespace_id, v.version, v.content, v.metadata, v.scopes, v.identity_id,
         v.occurred_at, v.expires_at,
         v.changed_fields, v.author_kind, v.author_id, v.author_name, v.written_at
  FROM memory_versions v`;

interface VersionRow {
  memory_id: string;
  version: number;
  content: string;
  metadata: Record<string, unknown>;
  scopes: Record<string, string>;
  identity_id: string | null;
  occurred_at: Date | string;
  expires_at: Date | string | null;
  changed_fields: string[] | null;
  author_kind: VersionAuthor["kind"] | null;
  author_id: string | null;
  author_name: string | null;
  written_at: Date | string;
}

function versionOf(row: VersionRow): MemoryVersion {
  return {
    memoryId: row.memory_id,
    version: row.version,
    content: row.content,
    metadata: row.metadata,
    scopes: row.scopes,
    identityId: row.identity_id,
    occurredAt: new Date(row.occurred_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    changedFields: row.changed_fields ?? [],
    changedBy: row.author_kind === null ? null : { kind: row.author_kind, id: row.author_id, name: row.author_name },
    changedAt: new Date(row.written_at),
  };
}

/**
 * Keeps a memory's current version in memory_versions, with its author: called in the transaction that
 * replaces it, after locking its row.
 */
export async function archiveCurrentVersion(tx: Tx, orgId: string, memoryId: string): Promise<void> {
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO memory_versions
       (memory_id, version, org_id, namespace_id, content, metadata, scopes, identity_id,
                                  occurred_at, expires_at, changed_fields, author_kind, author_id, author_name,
                                  written_at)
     SELECT memory_id, version, org_id, namespace_id, content, metadata, scopes, identity_id, occurred_at, expires_at,
            changed_fields, author_kind, author_id, author_name, written_at
     FROM (${CURRENT_VERSION_SQL} WHERE m.id = ${memoryId} AND m.org_id = ${orgId}) current_version`,
  );
}

/**
 * One page of a memory's versions, newest first, the current one included: those carrying every pair of
 * `scopes` (a key's scopes: an earlier version outside them is not shown, its content never leaves). The
 * caller has checked that the memory itself is visible.
 */
export async function historyPage(
  tx: Tx,
  memory: { id: string; orgId: string; namespaceId: string },
  scopes: Scopes,
  page: { skip: number; take: number },
): Promise<{ versions: MemoryVersion[]; total: number }> {
  const history = Prisma.sql`
    SELECT * FROM (
      ${CURRENT_VERSION_SQL}
      WHERE m.id = ${memory.id} AND m.org_id = ${memory.orgId} AND m.namespace_id = ${memory.namespaceId}
        AND (m.expires_at IS NULL OR m.expires_at > now())
      UNION ALL
      ${EARLIER_VERSIONS_SQL}
      WHERE v.memory_id = ${memory.id} AND v.org_id = ${memory.orgId} AND v.namespace_id = ${memory.namespaceId}
    ) h WHERE h.scopes @> ${JSON.stringify(scopes)}::jsonb`;
  const [rows, [{ total }]] = await Promise.all([
    tx.$queryRaw<VersionRow[]>(Prisma.sql`${history} ORDER BY h.version DESC LIMIT ${page.take} OFFSET ${page.skip}`),
    tx.$queryRaw<{ total: number }[]>(Prisma.sql`SELECT count(*)::int AS total FROM (${history}) counted`),
  ]);
  return { versions: rows.map(versionOf), total };
}

/**
 * Every version of these memories of one organization, newest first per memory, the current one included
 * (for the namespace export). With `scopes` (a key's), versions outside them are left out. Memories that are
 * expired or not in the organization have no entry. Read a few hundred memories at a time.
 */
export async function memoryVersions(
  client: Tx,
  orgId: string,
  memoryIds: string[],
  scopes: Scopes = {},
): Promise<Map<string, MemoryVersion[]>> {
  const rows =
    memoryIds.length === 0
      ? []
      : await client.$queryRaw<VersionRow[]>(
          Prisma.sql`SELECT * FROM (
             ${CURRENT_VERSION_SQL}
             WHERE m.id = ANY(${memoryIds}::text[]) AND m.org_id = ${orgId}
               AND (m.expires_at IS NULL OR m.expires_at > now())
             UNION ALL
             ${EARLIER_VERSIONS_SQL}
             WHERE v.memory_id = ANY(${memoryIds}::text[]) AND v.org_id = ${orgId}
               AND EXISTS (SELECT 1 FROM memories live WHERE live.id = v.memory_id
                           AND (live.expires_at IS NULL OR live.expires_at > now()))
           ) h WHERE h.scopes @> ${JSON.stringify(scopes)}::jsonb ORDER BY h.memory_id, h.version DESC`,
        );
  const byMemory = new Map<string, MemoryVersion[]>();
  for (const row of rows) {
    const versions = byMemory.get(row.memory_id) ?? [];
    versions.push(versionOf(row));
    byMemory.set(row.memory_id, versions);
  }
  return byMemory;
}

/**
 * Writes an imported memory's history (for the namespace import, in its transaction, after the memory row
 * was inserted with the current version's fields): `history` is the export's list, newest first. Its first
 * entry is the current version: the memory takes its version number, author and changed fields; the others
 * become its earlier versions, in the memory's namespace. Their numbers must be distinct and below the
 * current one (400 otherwise, naming `field`).
 */
export async function writeImportedHistory(
  tx: Tx,
  memory: { orgId: string; namespaceId: string; memoryId: string },
  history: ImportedVersion[],
  field = "history",
): Promise<void> {
  if (history.length === 0) return;
  const [current, ...earlier] = history;
  const seen = new Set<number>([current.version]);
  for (const [index, version] of earlier.entries()) {
    if (version.version >= current.version || seen.has(version.version)) {
      const message = "versions must be distinct and listed newest first, the current one first";
      throw new InvalidError(`${field}[${index + 1}].version: ${message}`, [
        { field: `${field}[${index + 1}].version`, message },
      ]);
    }
    seen.add(version.version);
  }
  await tx.$executeRaw(
    Prisma.sql`UPDATE memories SET version = ${current.version},
                         version_author_kind = ${current.changed_by?.kind ?? null},
                         version_author_id = ${current.changed_by?.id ?? null},
                         version_author_name = ${current.changed_by?.name ?? null},
                         version_changed_fields = ${current.changed_fields}::text[]
     WHERE id = ${memory.memoryId} AND org_id = ${memory.orgId}`,
  );
  if (earlier.length === 0) return;
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO memory_versions
       (memory_id, version, org_id, namespace_id, content, metadata, scopes, identity_id,
                                  occurred_at, expires_at, changed_fields, author_kind, author_id, author_name,
                                  written_at)
     SELECT ${memory.memoryId}, v.version, ${memory.orgId}, ${memory.namespaceId}, v.content, v.metadata, v.scopes,
            v.identity_id, v.occurred_at, v.expires_at,
            ARRAY(SELECT jsonb_array_elements_text(v.changed_fields)), v.changed_by->>'kind', v.changed_by->>'id',
            v.changed_by->>'name', v.changed_at
     FROM jsonb_to_recordset(${JSON.stringify(earlier)}::jsonb)
            AS v(version int, content text, metadata jsonb, scopes jsonb, identity_id text, occurred_at timestamptz,
                 expires_at timestamptz, changed_fields jsonb, changed_by jsonb, changed_at timestamptz)`,
  );
}

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(VersionAuthorSchema, "VersionAuthor");
named(MemoryVersionSchema, "MemoryVersion");
