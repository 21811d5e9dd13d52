import { ConflictError, InvalidError, namespaceNotFound, notFound } from "@/lib/errors";
import { pageWindow, type PaginationQuery } from "@/lib/http/pagination";
import { crashPoint, keepAnswerWithWrite } from "@/lib/http/request-writes";
import { actorOf, assertNamespaceWideAllowed, grantsOf, namespaceAccess, type Principal } from "@/lib/auth/principal";
import { deleteOauthGrants } from "@/lib/auth/api-keys/delete-oauth-grants";
import { dropNamespaceVectorIndex } from "./vector-indexes";
import { namespacesOfMember } from "@/lib/auth/permissions";
import { recordAudit } from "@/lib/audit/audit";
import { recordKeysEnded } from "@/lib/event-recording/key-events";
import { recordDeletionEvents, recordEvents } from "@/lib/event-recording/record-events";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { cachedAccessRead } from "@/lib/auth/access-reads";
import type { Role } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { recordErasure } from "@/lib/erasure-receipts/record-erasure";
import { namespaceJson, type CreateGrantBody, type CreateNamespaceBody, type UpdateNamespaceBody } from "./schemas";
import { explainUniqueViolation } from "@/lib/db/unique-violation";

/** A grant's grantee as the audit log's details name it (snake_case, like every detail key). */
function grantDetails(grantee: { apiKeyId: string } | { userId: string }) {
  return "apiKeyId" in grantee ? { api_key_id: grantee.apiKeyId } : { user_id: grantee.userId };
}

// Every query below is bounded by the principal's organization and, for an existing namespace, by a
// grant to the principal (namespaceAccess): a namespace of another organization, or not granted, is
// simply not found.
// Managing namespaces and grants is refused to keys with scopes (assertNamespaceWideAllowed), here and
// not only in the HTTP layer, since every caller of the domain goes through these functions.

/** What narrows a namespace list beyond the principal's access: a part of the name, any case (the console's search). */
export interface NamespaceFilter {
  nameContains?: string;
}

export async function listNamespaces(principal: Principal, query: PaginationQuery, filter: NamespaceFilter = {}) {
  const prisma = await db();
  const search = filter.nameContains
    ? { name: { contains: literalLikePattern(filter.nameContains), mode: "insensitive" as const } }
    : {};
  const where = { ...namespaceAccess(principal), ...search };
  const [items, total] = await Promise.all([
    prisma.namespace.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageWindow(query) }),
    prisma.namespace.count({ where }),
  ]);
  return { items, total };
}

/** Prisma's `contains` is a LIKE pattern: `%`, `_` and the escape `\` typed in a search mean themselves. */
function literalLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export async function getNamespace(principal: Principal, id: string) {
  const prisma = await db();
  return findVisible(prisma, principal, id);
}

async function findVisible(tx: Tx, principal: Principal, id: string) {
  const namespace = await tx.namespace.findFirst({ where: { id, ...namespaceAccess(principal) } });
  if (!namespace)
    throw namespaceNotFound(
      `Namespace ${id}`,
      principal.kind === "api_key" ? await ungrantedNamespaceId(tx, principal.orgId, { id }) : undefined,
    );
  return namespace;
}

async function assertUnique(
  tx: Tx,
  orgId: string,
  fields: { name?: string; externalReferenceId?: string | null },
  exceptId?: string,
) {
  const not = exceptId ? { NOT: { id: exceptId } } : {};
  // `details` names the field taken (as a validation error would), so a form can show it next to that field.
  if (fields.name !== undefined && (await tx.namespace.findFirst({ where: { orgId, name: fields.name, ...not } }))) {
    const message = `A namespace named "${fields.name}" already exists in this organization.`;
    throw new ConflictError(message, [{ field: "body.name", message }]);
  }
  const ref = fields.externalReferenceId;
  if (ref && (await tx.namespace.findFirst({ where: { orgId, externalReferenceId: ref, ...not } }))) {
    const message = `A namespace with external_reference_id "${ref}" already exists in this organization.`;
    throw new ConflictError(message, [{ field: "body.external_reference_id", message }]);
  }
}

/**
 * Creates the namespace and, for a key, grants it to that key, in one transaction. A person who may
 * create namespaces (an owner or admin) sees every namespace of the organization without a grant.
 */
export async function createNamespace(principal: Principal, input: CreateNamespaceBody) {
  assertNamespaceWideAllowed(principal, "creating a namespace");
  const prisma = await db();
  const unique = { name: input.name, externalReferenceId: input.external_reference_id };
  const created = prisma.$transaction(async (tx) => {
    await assertUnique(tx, principal.orgId, unique);
    const namespace = await tx.namespace.create({
      data: {
        id: newId("ns"),
        orgId: principal.orgId,
        name: input.name,
        description: input.description ?? null,
        externalReferenceId: input.external_reference_id ?? null,
        infer: input.infer ?? false,
      },
    });
    const actor = actorOf(principal);
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor,
      action: "namespace.create",
      targetType: "namespace",
      targetId: namespace.id,
      details: { name: namespace.name },
    });
    await recordEvents(tx, principal.orgId, [
      { type: "namespace.created", namespaceId: namespace.id, data: namespaceEventData(namespace) },
    ]);
    if (principal.kind === "api_key") {
      const grant = await tx.namespaceGrant.create({
        data: { id: newId("grt"), orgId: principal.orgId, namespaceId: namespace.id, ...grantsOf(principal) },
      });
      await recordAudit(tx, {
        orgId: principal.orgId,
        actor,
        action: "grant.create",
        targetType: "namespace_grant",
        targetId: grant.id,
        details: { namespace_id: namespace.id, ...grantDetails(grantsOf(principal)), implicit: true },
      });
    }
    await keepAnswerWithWrite(tx, 201, namespaceJson(namespace));
    return namespace;
  });
  // Another request may take the name between the check and the insert: the unique index refuses this one.
  return created.catch(explainUniqueViolation(() => assertUnique(prisma, principal.orgId, unique)));
}

export async function updateNamespace(principal: Principal, id: string, input: UpdateNamespaceBody) {
  assertNamespaceWideAllowed(principal, "changing a namespace");
  const prisma = await db();
  const unique = { name: input.name, externalReferenceId: input.external_reference_id };
  const update = prisma.$transaction(async (tx) => {
    const before = await findVisible(tx, principal, id);
    await assertUnique(tx, principal.orgId, unique, id);
    const updated = await tx.namespace.update({
      where: { id, orgId: principal.orgId },
      data: {
        name: input.name,
        description: input.description,
        externalReferenceId: input.external_reference_id,
        infer: input.infer,
      },
    });
    // The external reference id routes API and MCP calls that address the namespace by it: on record.
    const fields = {
      name: "name",
      description: "description",
      externalReferenceId: "external_reference_id",
      infer: "infer",
    } as const;
    const changed = (Object.keys(fields) as (keyof typeof fields)[]).filter(
      (field) => before[field] !== updated[field],
    );
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "namespace.update",
      targetType: "namespace",
      targetId: id,
      details: Object.fromEntries(
        changed.map((field) => [fields[field], { before: before[field], after: updated[field] }]),
      ),
    });
    if (changed.length > 0) {
      await recordEvents(tx, principal.orgId, [
        {
          type: "namespace.updated",
          namespaceId: id,
          data: { ...namespaceEventData(updated), changed_fields: changed.map((field) => fields[field]) },
        },
      ]);
    }
    return updated;
  });
  return update.catch(explainUniqueViolation(() => assertUnique(prisma, principal.orgId, unique, id)));
}

/**
 * Deletes the namespace; its grants, memories, chunks and statistics go with it by cascade. The deletion's
 * erasure receipt counts the memories and chunks first, in the same transaction, with the namespace row
 * locked: a memory written meanwhile waits for the deletion (its foreign key check needs that row), so
 * the counts are what the cascade deletes.
 */
export async function deleteNamespace(principal: Principal, id: string) {
  assertNamespaceWideAllowed(principal, "deleting a namespace");
  const prisma = await db();
  const deleted = await prisma.$transaction(async (tx) => {
    const namespace = await findVisible(tx, principal, id);
    const orgId = principal.orgId;
    await tx.$queryRaw(Prisma.sql`SELECT id FROM namespaces WHERE id = ${id} AND org_id = ${orgId} FOR UPDATE`);
    const [counts] = await tx.$queryRaw<{ memories: number; chunks: number; facts: number }[]>(
      Prisma.sql`SELECT
              (SELECT count(*)::int FROM memories WHERE org_id = ${orgId} AND namespace_id = ${id}) AS memories,
              (SELECT count(*)::int FROM memories WHERE org_id = ${orgId} AND namespace_id = ${id}
                                                    AND kind = 'fact') AS facts,
              (SELECT count(*)::int FROM memory_chunks WHERE org_id = ${orgId} AND namespace_id = ${id}) AS chunks`,
    );
    // Kept Idempotency-Key answers showing this namespace's memories are withdrawn (see withdrawKeptAnswers).
    await tx.$executeRaw(
      Prisma.sql`UPDATE idempotency_keys SET response_encrypted = NULL, withdrawn_at = now()
       WHERE org_id = ${orgId}
         AND memory_ids && ARRAY(SELECT id FROM memories WHERE org_id = ${orgId} AND namespace_id = ${id})`,
    );
    // A connected MCP client reaches this one namespace: it ends with it.
    const connections = await tx.apiKey.findMany({
      where: { orgId, oauthClientId: { not: null }, revokedAt: null, grants: { some: { namespaceId: id } } },
      select: { id: true, name: true, oauthClientId: true, oauthGrantId: true },
    });
    await tx.apiKey.updateMany({
      where: { orgId, id: { in: connections.map((key) => key.id) } },
      data: { revokedAt: new Date() },
    });
    await deleteOauthGrants(tx, connections);
    await recordKeysEnded(tx, orgId, connections, "its namespace was deleted", id);
    await recordDeletionEvents(tx, orgId, { namespaceId: id }, "namespace_deletion");
    // Its events are written before the row goes: the grants the cascade deletes decide who receives them.
    const erasure = await recordErasure(tx, principal, {
      kind: "namespace.delete",
      namespaceId: id,
      namespaces: [
        {
          namespaceId: id,
          name: namespace.name,
          memoriesDeleted: counts.memories,
          chunksDeleted: counts.chunks,
          factsDeleted: counts.facts,
        },
      ],
      selector: { whole_namespace: true },
    });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(principal),
      action: "namespace.delete",
      targetType: "namespace",
      targetId: id,
      details: {
        name: namespace.name,
        erasure_id: erasure.id,
        memories_deleted: erasure.memoriesDeleted,
        chunks_deleted: erasure.chunksDeleted,
      },
    });
    await recordEvents(tx, orgId, [
      {
        type: "namespace.deleted",
        namespaceId: id,
        data: { ...namespaceEventData(namespace), erasure_id: erasure.id, memories_deleted: counts.memories },
      },
    ]);
    await tx.namespace.delete({ where: { id, orgId } });
    crashPoint("namespace-delete.in-transaction");
    return { id, deleted: true as const };
  });
  // Its vector index (a large namespace's) holds nothing any more; dropped outside the deletion's transaction.
  await dropNamespaceVectorIndex(id).catch((error) =>
    console.error(`[memgw] dropping the vector index of deleted namespace ${id} failed:`, error),
  );
  return deleted;
}

export async function listGrants(principal: Principal, namespaceId: string) {
  assertNamespaceWideAllowed(principal, "listing a namespace's grants");
  const prisma = await db();
  await findVisible(prisma, principal, namespaceId);
  return prisma.namespaceGrant.findMany({
    where: { orgId: principal.orgId, namespaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export async function createGrant(principal: Principal, namespaceId: string, input: CreateGrantBody) {
  assertNamespaceWideAllowed(principal, "granting access to a namespace");
  const prisma = await db();
  const grantee = input.api_key_id ? { apiKeyId: input.api_key_id } : { userId: input.user_id! };
  const grantExists = () =>
    new ConflictError(`That ${input.api_key_id ? "API key" : "user"} already has access to namespace ${namespaceId}.`);
  const created = prisma.$transaction(async (tx) => {
    await findVisible(tx, principal, namespaceId);
    const orgId = principal.orgId;
    if (input.api_key_id) {
      const key = await tx.apiKey.findFirst({ where: { id: input.api_key_id, orgId } });
      if (!key) throw notFound(`API key ${input.api_key_id}`);
      if (key.revokedAt) throw new InvalidError(`API key ${key.id} is revoked.`);
      if (key.oauthClientId) {
        throw new InvalidError(
          `API key ${key.id} is a connected MCP client: it reaches only the namespace its person approved.`,
        );
      }
    } else {
      const member = await tx.membership.findFirst({ where: { orgId, userId: input.user_id } });
      if (!member) throw notFound(`User ${input.user_id}`);
    }
    if (await tx.namespaceGrant.findFirst({ where: { orgId, namespaceId, ...grantee } })) throw grantExists();
    const grant = await tx.namespaceGrant.create({ data: { id: newId("grt"), orgId, namespaceId, ...grantee } });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(principal),
      action: "grant.create",
      targetType: "namespace_grant",
      targetId: grant.id,
      details: { namespace_id: namespaceId, ...grantDetails(grantee) },
    });
    return grant;
  });
  // The same grant made at once by another request: the unique index refuses this one.
  return created.catch(
    explainUniqueViolation(async () => {
      throw grantExists();
    }),
  );
}

export async function deleteGrant(principal: Principal, namespaceId: string, grantId: string) {
  assertNamespaceWideAllowed(principal, "removing a grant");
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await findVisible(tx, principal, namespaceId);
    const grant = await tx.namespaceGrant.findFirst({ where: { id: grantId, namespaceId, orgId: principal.orgId } });
    if (!grant) throw notFound(`Grant ${grantId}`);
    await tx.namespaceGrant.delete({ where: { id: grant.id } });
    await recordAudit(tx, {
      orgId: principal.orgId,
      actor: actorOf(principal),
      action: "grant.delete",
      targetType: "namespace_grant",
      targetId: grant.id,
      details: { namespace_id: namespaceId, api_key_id: grant.apiKeyId, user_id: grant.userId },
    });
    return { id: grant.id, deleted: true as const };
  });
}

/** The namespace a memory operation addresses by `namespace_id` or `external_reference_id`, or 404. */
export async function resolveTarget(
  principal: Principal,
  target: { namespace_id?: string; external_reference_id?: string },
) {
  const prisma = await db();
  const where = target.namespace_id
    ? { id: target.namespace_id }
    : { externalReferenceId: target.external_reference_id };
  const access = { ...where, ...namespaceAccess(principal) };
  // The condition names the organization and what the principal may reach: it is the whole cache key.
  const namespace = await cachedAccessRead(`namespace:${JSON.stringify(access)}`, () =>
    prisma.namespace.findFirst({ where: access }),
  );
  if (!namespace)
    throw namespaceNotFound(
      `Namespace ${target.namespace_id ?? `with external_reference_id ${target.external_reference_id}`}`,
      principal.kind === "api_key" ? await ungrantedNamespaceId(prisma, principal.orgId, where) : undefined,
    );
  return namespace;
}

/**
 * The id of the organization's namespace a key was refused for want of a grant, if it is one of the organization's.
 * Read through the caller's client: inside a transaction, another connection would wait for it (on the embedded
 * database, its one connection: until the transaction's timeout).
 */
async function ungrantedNamespaceId(
  client: Tx,
  orgId: string,
  where: { id?: string; externalReferenceId?: string },
): Promise<string | undefined> {
  return (await client.namespace.findFirst({ where: { ...where, orgId }, select: { id: true } }))?.id;
}

/**
 * The namespaces a console user may grant to keys they create:
 * all for owners and admins, their own grants for members.
 */
export async function namespacesForMember(orgId: string, userId: string, role: Role) {
  const prisma = await db();
  return prisma.namespace.findMany({
    where: { orgId, ...namespacesOfMember({ userId, role }) },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
}

/** What a namespace's events say of it (its description is the organization's text: not sent). */
function namespaceEventData(namespace: { id: string; name: string; externalReferenceId: string | null }) {
  return { namespace_id: namespace.id, name: namespace.name, external_reference_id: namespace.externalReferenceId };
}
