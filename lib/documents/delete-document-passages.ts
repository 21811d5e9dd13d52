import { db } from "@/lib/db";
import { deleteMemories } from "@/lib/memory/deletion";

/** Memories deleted per transaction: a large document's passages never hold the database for long. */
const PASSAGES_PER_TRANSACTION = 500;

/** Deletes the memories a document's processing stored (its chunks and search statistics with them). */
export async function deleteDocumentPassages(document: { id: string; orgId: string; namespaceId: string }) {
  const prisma = await db();
  let deleted = 0;
  for (;;) {
    const memories = await prisma.memory.findMany({
      where: { orgId: document.orgId, namespaceId: document.namespaceId, documentId: document.id },
      select: { id: true },
      take: PASSAGES_PER_TRANSACTION,
    });
    if (memories.length === 0) return deleted;
    await prisma.$transaction((tx) =>
      deleteMemories(
        tx,
        document.orgId,
        document.namespaceId,
        memories.map((m) => m.id),
        { keepDocuments: true },
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
