import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Deletes, with their originals and extracted text, the documents an erasure selects by their own fields: of
 * an identity (when given) and carrying every scope pair given, in these namespaces. A forget by identity or of
 * a whole namespace takes the documents with the memories; their passages are memories and go through forget.
 */
export async function eraseDocuments(
  tx: Tx,
  selection: { orgId: string; namespaceIds: string[]; identityId?: string; scopes: Scopes },
): Promise<number> {
  const { count } = await tx.document.deleteMany({
    where: {
      orgId: selection.orgId,
      namespaceId: { in: selection.namespaceIds },
      ...(selection.identityId !== undefined && { identityId: selection.identityId }),
      AND: Object.entries(selection.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
    },
  });
  return count;
}

/**
 * The document ids of memories about to be deleted, so that documents left without a passage can go after
 * them (deleteEmptiedDocuments).
 */
export async function documentsOfMemories(tx: Tx, orgId: string, memoryIds: string[]): Promise<string[]> {
  const rows = await tx.$queryRaw<{ document_id: string }[]>(
    Prisma.sql`SELECT DISTINCT document_id FROM memories
               WHERE org_id = ${orgId} AND id = ANY(${memoryIds}::text[]) AND document_id IS NOT NULL`,
  );
  return rows.map((row) => row.document_id);
}

/** Deletes processed documents none of whose passages is left (every one forgotten). */
export async function deleteEmptiedDocuments(tx: Tx, orgId: string, documentIds: string[]): Promise<void> {
  if (documentIds.length === 0) return;
  await tx.$executeRaw(
    Prisma.sql`DELETE FROM documents d
               WHERE d.org_id = ${orgId} AND d.id = ANY(${documentIds}::text[]) AND d.status = 'ready'
                 AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.org_id = ${orgId} AND m.document_id = d.id)`,
  );
}
