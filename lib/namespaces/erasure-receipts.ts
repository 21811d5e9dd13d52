// Erasure receipts: the proof that a deletion request was served. A receipt says what was asked (the
// selector, never content), how many memories and chunks went from which namespaces, who asked and when.
// Written with the deletion's own transaction client (a receipt exists exactly when the deletion happened);
// read back at GET /erasures. Kept in the `erasures` table (raw SQL: the table is not a Prisma model).
// Here beside namespaces, not in lib/memory: a namespace's deletion writes receipts too, and lib/memory
// already builds on this folder (forgetting in lib/memory/erasures.ts writes its receipts through this).
import { z } from "zod";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db, type Tx } from "@/lib/db";
import { PaginationQuery } from "@/lib/http/pagination";
import { newId } from "@/lib/ids";
import { identifier } from "@/lib/validation/strings";

export type ErasureKind = "forget" | "namespace.delete" | "integration.delete";

/** One namespace a deletion touched, as it was named when the deletion happened. */
export interface ErasedNamespace {
  namespaceId: string;
  name: string;
  memoriesDeleted: number;
  chunksDeleted: number;
}

/**
 * What the request asked to delete. Selector values only (identifiers, scope pairs, metadata values the
 * caller filtered by), never a memory's content; memory ids are counted, not listed.
 */
export interface ErasureSelector {
  memory_id_count?: number;
  identity_id?: string;
  scopes?: Record<string, string>;
  metadata?: Record<string, unknown>;
  all?: true;
  all_namespaces?: true;
  /** For all_namespaces: how many namespaces the principal could write, every one of which was searched. */
  namespaces_searched?: number;
  whole_namespace?: true;
  /** An integration's deletion: the connection whose memories went with it. */
  connection_id?: string;
}

export interface ErasureInput {
  kind: ErasureKind;
  /** The request's one namespace; null for a forget across every namespace. */
  namespaceId: string | null;
  namespaces: ErasedNamespace[];
  selector: ErasureSelector;
}

export type ActorKind = "api_key" | "user" | "integration";

export interface ErasureActor {
  kind: ActorKind;
  id: string | null;
  name: string | null;
}

export interface Erasure {
  id: string;
  kind: ErasureKind;
  namespaceId: string | null;
  namespaces: ErasedNamespace[];
  selector: ErasureSelector;
  memoriesDeleted: number;
  chunksDeleted: number;
  actor: ErasureActor;
  createdAt: Date;
}

function actorOfPrincipal(principal: Principal): { kind: ActorKind; id: string } {
  if (principal.kind === "api_key") return { kind: "api_key", id: principal.keyId };
  if (principal.kind === "integration") return { kind: "integration", id: principal.connectionId };
  return { kind: "user", id: principal.userId };
}

/**
 * Who is deleting, named as they are now: the receipt keeps the name, since it must still say who it was
 * after the key is revoked or the user has left.
 */
async function actorNamed(tx: Tx, principal: Principal): Promise<ErasureActor> {
  const actor = actorOfPrincipal(principal);
  if (principal.kind === "api_key") return { ...actor, name: principal.name };
  if (principal.kind === "integration") return { ...actor, name: null };
  const user = await tx.user.findUnique({ where: { id: principal.userId }, select: { email: true } });
  return { ...actor, name: user?.email ?? null };
}

/**
 * Writes the receipt of a deletion, with `tx`: the transaction that deleted. A deletion made of several
 * transactions (the console's forgetting of an identity, a batch at a time) passes the same `id` to each:
 * the receipt is replaced by the latest totals, each time with the batch that made them.
 */
export async function recordErasure(
  tx: Tx,
  principal: Principal,
  input: ErasureInput,
  id: string = newId("era"),
): Promise<Erasure> {
  const actor = await actorNamed(tx, principal);
  const erasure: Erasure = {
    id,
    kind: input.kind,
    namespaceId: input.namespaceId,
    namespaces: input.namespaces,
    selector: input.selector,
    memoriesDeleted: input.namespaces.reduce((sum, ns) => sum + ns.memoriesDeleted, 0),
    chunksDeleted: input.namespaces.reduce((sum, ns) => sum + ns.chunksDeleted, 0),
    actor,
    createdAt: new Date(),
  };
  await tx.$executeRawUnsafe(
    `INSERT INTO erasures (id, org_id, kind, namespace_id, namespaces, selector, memories_deleted, chunks_deleted,
                           actor_kind, actor_id, actor_name, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12::timestamptz)
     ON CONFLICT (id) DO UPDATE
       SET namespaces = EXCLUDED.namespaces, memories_deleted = EXCLUDED.memories_deleted,
           chunks_deleted = EXCLUDED.chunks_deleted
       WHERE erasures.org_id = EXCLUDED.org_id`,
    erasure.id,
    principal.orgId,
    erasure.kind,
    erasure.namespaceId,
    JSON.stringify(erasure.namespaces.map(erasedNamespaceJson)),
    JSON.stringify(erasure.selector),
    erasure.memoriesDeleted,
    erasure.chunksDeleted,
    actor.kind,
    actor.id,
    actor.name,
    erasure.createdAt.toISOString(),
  );
  return erasure;
}

/** What an audit entry of a deletion says of its receipt (the console's audit log shows it). */
export function erasureAuditDetails(erasure: Erasure): Record<string, unknown> {
  return {
    erasure_id: erasure.id,
    selector: erasure.selector,
    memories_deleted: erasure.memoriesDeleted,
    chunks_deleted: erasure.chunksDeleted,
    namespaces: erasure.namespaces.map(erasedNamespaceJson),
  };
}

// ---- Reading receipts back: GET /erasures ----

export const ListErasuresQuery = PaginationQuery.extend({
  identity_id: identifier({ min: 1, max: 255, lengthMessage: "must be 1 to 255 characters" })
    .optional()
    .describe("only receipts of requests that named this identity"),
  namespace_id: identifier({ min: 1 }).optional().describe("only receipts of deletions in this namespace"),
});
export type ListErasuresQuery = z.infer<typeof ListErasuresQuery>;

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

const ErasedNamespaceSchema = z.object({
  namespace_id: z.string(),
  name: z.string().describe("the namespace's name when the deletion happened"),
  memories_deleted: z.number().int(),
  chunks_deleted: z.number().int(),
});

export const ErasureSchema = z.object({
  id: z.string(),
  kind: z
    .enum(["forget", "namespace.delete", "integration.delete"])
    .describe(
      "a forget (one namespace, or every namespace with all_namespaces), a namespace's deletion, or an " +
        "integration's deletion with the memories it brought",
    ),
  namespace_id: z.string().nullable().describe("the request's namespace; null for a forget with all_namespaces"),
  namespaces: z.array(ErasedNamespaceSchema).describe("every namespace memories were deleted from, with counts"),
  selector: z
    .object({
      memory_id_count: z.number().int().optional().describe("how many memory ids were listed (not the ids)"),
      identity_id: z.string().optional(),
      scopes: z.record(z.string(), z.string()).optional().describe("the scopes applied, the key's included"),
      metadata: z.record(z.string(), z.unknown()).optional(),
      all: z.literal(true).optional(),
      all_namespaces: z.literal(true).optional(),
      namespaces_searched: z.number().int().optional(),
      whole_namespace: z.literal(true).optional().describe("the namespace itself was deleted"),
      connection_id: z.string().optional().describe("the integration connection deleted with its memories"),
    })
    .describe("what the request asked to delete; never any memory's content"),
  memories_deleted: z.number().int(),
  chunks_deleted: z.number().int(),
  actor: z
    .object({
      kind: z.enum(["api_key", "user", "integration"]),
      id: z.string().nullable(),
      name: z.string().nullable().describe("the key's name or the user's email at the time"),
    })
    .describe("who asked"),
  created_at: Timestamp,
});
export type ErasureJson = z.infer<typeof ErasureSchema>;

function erasedNamespaceJson(ns: ErasedNamespace) {
  return {
    namespace_id: ns.namespaceId,
    name: ns.name,
    memories_deleted: ns.memoriesDeleted,
    chunks_deleted: ns.chunksDeleted,
  };
}

export function erasureJson(erasure: Erasure): ErasureJson {
  return {
    id: erasure.id,
    kind: erasure.kind,
    namespace_id: erasure.namespaceId,
    namespaces: erasure.namespaces.map(erasedNamespaceJson),
    selector: erasure.selector,
    memories_deleted: erasure.memoriesDeleted,
    chunks_deleted: erasure.chunksDeleted,
    actor: erasure.actor,
    created_at: erasure.createdAt.toISOString(),
  };
}

interface ErasureRow {
  id: string;
  kind: ErasureKind;
  namespace_id: string | null;
  namespaces: ReturnType<typeof erasedNamespaceJson>[];
  selector: ErasureSelector;
  memories_deleted: number;
  chunks_deleted: number;
  actor_kind: ActorKind;
  actor_id: string | null;
  actor_name: string | null;
  created_at: Date;
}

/**
 * Whom a principal's receipts are limited to, as SQL over `erasures e` (parameters appended to `params`):
 * - owners and admins (the console) see every receipt of the organization;
 * - anyone else sees the receipts they made themselves, and those whose every namespace is one they may use
 *   now. A receipt naming a namespace they may not use (or one deleted since) would tell them its name and
 *   whose memories were in it, so it is not theirs to see.
 */
async function visibility(principal: Principal, params: unknown[]): Promise<string> {
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = [`e.org_id = ${add(principal.orgId)}`];
  if (principal.kind === "member" && principal.role !== "member") return conditions.join(" AND ");
  const prisma = await db();
  const usable = await prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true } });
  const actor = actorOfPrincipal(principal);
  conditions.push(
    `((e.actor_kind = ${add(actor.kind)} AND e.actor_id = ${add(actor.id)})
      OR (jsonb_array_length(e.namespaces) > 0 AND NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements(e.namespaces) n
            WHERE NOT ((n ->> 'namespace_id') = ANY(${add(usable.map((ns) => ns.id))}::text[])))))`,
  );
  return conditions.join(" AND ");
}

/** One page of the receipts a principal may see (see visibility), newest first, with the query's filters. */
export async function listErasures(principal: Principal, query: ListErasuresQuery) {
  const params: unknown[] = [];
  const conditions = [await visibility(principal, params)];
  if (query.identity_id !== undefined) {
    params.push(query.identity_id);
    conditions.push(`e.selector ->> 'identity_id' = $${params.length}`);
  }
  if (query.namespace_id !== undefined) {
    // Every receipt lists the namespaces it deleted from (a forget in one namespace lists it even at 0).
    params.push(JSON.stringify([{ namespace_id: query.namespace_id }]));
    conditions.push(`e.namespaces @> $${params.length}::jsonb`);
  }
  const where = conditions.join(" AND ");
  const prisma = await db();
  const [{ total }] = await prisma.$queryRawUnsafe<{ total: number }[]>(
    `SELECT count(*)::int AS total FROM erasures e WHERE ${where}`,
    ...params,
  );
  const rows = await prisma.$queryRawUnsafe<ErasureRow[]>(
    `SELECT e.id, e.kind, e.namespace_id, e.namespaces, e.selector, e.memories_deleted, e.chunks_deleted,
            e.actor_kind, e.actor_id, e.actor_name, e.created_at
     FROM erasures e WHERE ${where}
     ORDER BY e.created_at DESC, e.id DESC
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    ...params,
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  const items: Erasure[] = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    namespaceId: row.namespace_id,
    namespaces: row.namespaces.map((ns) => ({
      namespaceId: ns.namespace_id,
      name: ns.name,
      memoriesDeleted: ns.memories_deleted,
      chunksDeleted: ns.chunks_deleted,
    })),
    selector: row.selector,
    memoriesDeleted: row.memories_deleted,
    chunksDeleted: row.chunks_deleted,
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    createdAt: row.created_at,
  }));
  return { items, total };
}
