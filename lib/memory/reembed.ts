import { notFound } from "@/lib/errors";
import { db } from "@/lib/db";
import { embedder } from "./embeddings";
import { vectorLiteral } from "./sql";

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
    const chunks = await prisma.$queryRawUnsafe<{ id: string; content: string }[]>(
      `SELECT id, content FROM memory_chunks
       WHERE org_id = $1 AND namespace_id = $2 AND embedding_model <> $3 ORDER BY id LIMIT $4`,
      namespace.orgId,
      namespace.id,
      provider.model,
      CHUNKS_PER_ROUND,
    );
    if (chunks.length === 0) break;
    // Counted as the organization's own ingestion, so a large re-embed takes turns with other organizations' work.
    const vectors = await provider.embed(
      chunks.map((c) => c.content),
      "ingest",
      { orgId: namespace.orgId },
    );
    await prisma.$executeRawUnsafe(
      `UPDATE memory_chunks c SET embedding = u.embedding::vector, embedding_model = $3
       FROM jsonb_to_recordset($4::jsonb) AS u(id text, embedding text)
       WHERE c.id = u.id AND c.org_id = $1 AND c.namespace_id = $2`,
      namespace.orgId,
      namespace.id,
      provider.model,
      JSON.stringify(chunks.map((c, i) => ({ id: c.id, embedding: vectorLiteral(vectors[i]) }))),
    );
    done += chunks.length;
    onProgress?.(done);
  }
  return { namespace_id: namespace.id, model: provider.model, reembedded_chunks: done };
}
