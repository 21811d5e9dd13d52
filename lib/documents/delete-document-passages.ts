import { db } from "@/lib/db";
import type { DeletionReason } from "@/lib/event-recording/event-types";
import { deleteMemories } from "@/lib/memory/store/deletion";

/** Memories deleted per transaction: a large document's passages never hold the database for long. */
const PASSAGES_PER_TRANSACTION = 500;

type DocumentRef = { id: string; orgId: string; namespaceId: string };

/** The ids of a document's passages now. */
export async function passageIds(document: DocumentRef): Promise<string[]> {
  const prisma = await db();
  const memories = await prisma.memory.findMany({
    where: { orgId: document.orgId, namespaceId: document.namespaceId, documentId: document.id },
    select: { id: true },
  });
  return memories.map((memory) => memory.id);
}

/**
 * Deletes the memories a document's processing stored (its chunks and search statistics with them): all of
 * them, or those of `only` (the passages of an earlier run, replaced: their events say so).
 */
export async function deleteDocumentPassages(document: DocumentRef, only?: string[]) {
  const reason: DeletionReason = only ? "document_replaced" : "document_deleted";
  const prisma = await db();
  let deleted = 0;
  for (let offset = 0; ; offset += PASSAGES_PER_TRANSACTION) {
    if (only && offset >= only.length) return deleted;
    const memories = await prisma.memory.findMany({
      where: {
        orgId: document.orgId,
        namespaceId: document.namespaceId,
        documentId: document.id,
        ...(only && { id: { in: only.slice(offset, offset + PASSAGES_PER_TRANSACTION) } }),
      },
      select: { id: true },
      take: PASSAGES_PER_TRANSACTION,
    });
    if (!only && memories.length === 0) return deleted;
    await prisma.$transaction((tx) =>
      deleteMemories(
        tx,
        document.orgId,
        document.namespaceId,
        memories.map((m) => m.id),
        { reason, keepDocuments: true },
      ),
    );
    deleted += memories.length;
  }
}

/** The passages of a document that no longer exists, in whatever namespace they are. */
export async function deleteOrphanedPassages(orgId: string, documentId: string) {
  const prisma = await db();
  const namespaces = await prisma.memory.findMany({
    where: { orgId, documentId },
    select: { namespaceId: true },
    distinct: ["namespaceId"],
  });
  for (const { namespaceId } of namespaces) await deleteDocumentPassages({ id: documentId, orgId, namespaceId });
}
