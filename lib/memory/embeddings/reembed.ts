import { notFound } from "@/lib/errors";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { embedder } from "./";
import { vectorParameter } from "../common/sql";

const CHUNKS_PER_ROUND = 64;

/**
 * Re-embeds every chunk of a namespace that another model embedded (after EMBEDDING_PROVIDER or
 * EMBEDDING_MODEL changed), a round at a time: until then those chunks are found by their words only.
 */
export async function reembedNamespace(namespaceId: string, onProgress?: (done: number) => void) {
  const prisma = await db();
  const namespace = await prisma.namespace.findUnique({ where: { id: namespaceId } });
  if (!namespace) throw notFound(`Namespace ${namespaceId}`);
  const provider = embedder();
  let done = 0;
  for (;;) {
    const chunks = await prisma.$queryRaw<{ id: string; content: string }[]>(
      Prisma.sql`SELECT id, content FROM memory_chunks
       WHERE org_id = ${namespace.orgId} AND namespace_id = ${namespace.id} AND embedding_model <> ${provider.model}
       ORDER BY id LIMIT ${CHUNKS_PER_ROUND}`,
    );
    if (chunks.length === 0) break;
    // Counted as the organization's own ingestion, so a large re-embed takes turns with other organizations' work.
    const vectors = await provider.embed(
      chunks.map((c) => c.content),
      "ingest",
      { orgId: namespace.orgId },
    );
    const embedded = Prisma.join(chunks.map((c, i) => Prisma.sql`(${c.id}, ${vectorParameter(vectors[i])}::vector)`));
    await prisma.$executeRaw(
      Prisma.sql`UPDATE memory_chunks c SET embedding = u.embedding, embedding_model = ${provider.model}
       FROM (VALUES ${embedded}) AS u(id, embedding)
       WHERE c.id = u.id AND c.org_id = ${namespace.orgId} AND c.namespace_id = ${namespace.id}`,
    );
    done += chunks.length;
    onProgress?.(done);
  }
  return { namespace_id: namespace.id, model: provider.model, reembedded_chunks: done };
}
