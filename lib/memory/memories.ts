import type { ActivityNote } from "@/lib/activity/activity";
import { notFound } from "@/lib/api/errors";
import type { Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { chunkText } from "./chunking";
import { embedder } from "./embeddings";
import { effectiveScopes } from "./scopes";
import type { ForgetBody, MemoryItem, Metadata, RememberBody, Target } from "./schemas";
import { memoryFilterSql, TEXT_SEARCH_CONFIG, vectorLiteral } from "./sql";
import { noteSearchGrowth } from "./search-maintenance";

// Short statements: PGlite runs on the server's main thread, so a write never holds it for long.
const ROWS_PER_STATEMENT = 100;

interface PreparedMemory {
  id: string;
  content: string;
  metadata: Metadata;
  scopes: Scopes;
  identityId: string | null;
  chunks: string[];
}

/** The items of a remember request: a single `content` or a batch, with the top-level fields as defaults. */
export function memoryItems(body: RememberBody): MemoryItem[] {
  const defaults = { metadata: body.metadata, scopes: body.scopes, identity_id: body.identity_id };
  if (body.content !== undefined) return [{ content: body.content, ...defaults }];
  return body.memories!.map((item) => ({
    content: item.content,
    metadata: item.metadata ?? defaults.metadata,
    scopes: item.scopes ?? defaults.scopes,
    identity_id: item.identity_id ?? defaults.identity_id,
  }));
}

/**
 * Stores memories: chunks them, embeds every chunk in one call (outside any transaction), then writes
 * memories, chunks, BM25 postings and term statistics in one transaction. When it returns, recall finds them.
 */
export async function remember(principal: Principal, target: Target, items: MemoryItem[], activity: ActivityNote = {}) {
  const namespace = await resolveTarget(principal, target);
  activity.namespaceId = namespace.id;
  const prepared: PreparedMemory[] = items.map((item) => ({
    id: newId("mem"),
    content: item.content,
    metadata: item.metadata ?? {},
    scopes: effectiveScopes(principal.scopes, item.scopes),
    identityId: item.identity_id ?? null,
    chunks: chunkText(item.content),
  }));
  const provider = embedder();
  const vectors = await provider.embed(prepared.flatMap((m) => m.chunks), "ingest");

  const chunkRows = prepared.flatMap((memory) =>
    memory.chunks.map((content, position) => ({
      id: newId("chk"),
      memory_id: memory.id,
      position,
      content,
      metadata: memory.metadata,
      scopes: memory.scopes,
      identity_id: memory.identityId,
    })),
  );
  chunkRows.forEach((row, i) => Object.assign(row, { embedding: vectorLiteral(vectors[i]) }));

  const prisma = await db();
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    for (let i = 0; i < prepared.length; i += ROWS_PER_STATEMENT) {
      await tx.memory.createMany({
        data: prepared.slice(i, i + ROWS_PER_STATEMENT).map((m) => ({
          id: m.id,
          orgId: principal.orgId,
          namespaceId: namespace.id,
          content: m.content,
          metadata: m.metadata,
          scopes: m.scopes,
          identityId: m.identityId,
          apiKeyId: principal.keyId,
          chunkCount: m.chunks.length,
          createdAt: now,
          updatedAt: now,
        })),
      });
    }
    for (let i = 0; i < chunkRows.length; i += ROWS_PER_STATEMENT) {
      await insertChunks(tx, principal.orgId, namespace.id, provider.model, now, chunkRows.slice(i, i + ROWS_PER_STATEMENT));
    }
  });
  noteSearchGrowth(chunkRows.length);
  return {
    namespace,
    memories: prepared.map((m) => ({
      id: m.id,
      namespaceId: namespace.id,
      content: m.content,
      metadata: m.metadata,
      scopes: m.scopes,
      identityId: m.identityId,
      chunkCount: m.chunks.length,
      createdAt: now,
      updatedAt: now,
    })),
  };
}

/**
 * Writes chunks with their BM25 postings and the namespace's term statistics in one statement, each
 * chunk's text tokenized once.
 */
async function insertChunks(tx: Tx, orgId: string, namespaceId: string, model: string, now: Date, rows: object[]) {
  await tx.$executeRawUnsafe(
    `WITH input AS (
       SELECT u.*, to_tsvector('${TEXT_SEARCH_CONFIG}', u.content) AS tsv
       FROM jsonb_to_recordset($5::jsonb) AS u(id text, memory_id text, position int, content text, embedding text,
                                              metadata jsonb, scopes jsonb, identity_id text)
     ),
     terms AS (
       SELECT i.id, t.lexeme, array_length(t.positions, 1) AS tf FROM input i, unnest(i.tsv) t
     ),
     lengths AS (
       SELECT i.id, COALESCE(sum(t.tf), 0)::int AS term_count FROM input i LEFT JOIN terms t ON t.id = i.id GROUP BY i.id
     ),
     chunks AS (
       INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding, embedding_model,
                                  term_count, metadata, scopes, identity_id, created_at)
       SELECT i.id, $1, $2, i.memory_id, i.position, i.content, i.embedding::vector, $3, l.term_count,
              i.metadata, i.scopes, i.identity_id, $4::timestamptz
       FROM input i JOIN lengths l ON l.id = i.id
     ),
     postings AS (
       INSERT INTO chunk_terms (namespace_id, term, chunk_id, tf, term_count)
       SELECT $2, t.lexeme, t.id, t.tf, l.term_count FROM terms t JOIN lengths l ON l.id = t.id
     ),
     statistics AS (
       INSERT INTO namespace_search_stats (namespace_id, chunk_count, total_terms)
       SELECT $2, count(*), COALESCE(sum(term_count), 0) FROM lengths
       ON CONFLICT (namespace_id) DO UPDATE SET chunk_count = namespace_search_stats.chunk_count + EXCLUDED.chunk_count,
                                                total_terms = namespace_search_stats.total_terms + EXCLUDED.total_terms
     )
     INSERT INTO namespace_terms (namespace_id, term, df)
     SELECT $2, lexeme, count(*) FROM terms GROUP BY lexeme
     ON CONFLICT (namespace_id, term) DO UPDATE SET df = namespace_terms.df + EXCLUDED.df`,
    orgId,
    namespaceId,
    model,
    now.toISOString(),
    JSON.stringify(rows),
  );
}

/** Takes chunks about to be deleted out of their namespace's document frequencies and length totals. */
async function subtractTermStatistics(tx: Tx, namespaceId: string, chunkIds: string[]) {
  if (chunkIds.length === 0) return;
  await tx.$executeRawUnsafe(
    `UPDATE namespace_terms t SET df = t.df - gone.n
     FROM (SELECT term, count(*) AS n FROM chunk_terms WHERE chunk_id = ANY($2::text[]) GROUP BY term) gone
     WHERE t.namespace_id = $1 AND t.term = gone.term`,
    namespaceId,
    chunkIds,
  );
  await tx.$executeRawUnsafe(`DELETE FROM namespace_terms WHERE namespace_id = $1 AND df <= 0`, namespaceId);
  await tx.$executeRawUnsafe(
    `UPDATE namespace_search_stats s SET chunk_count = s.chunk_count - gone.n, total_terms = s.total_terms - gone.terms
     FROM (SELECT count(*) AS n, COALESCE(sum(term_count), 0) AS terms FROM memory_chunks WHERE id = ANY($2::text[])) gone
     WHERE s.namespace_id = $1`,
    namespaceId,
    chunkIds,
  );
}

/** One memory, if it is in a namespace granted to the principal and carries all of the principal's scopes. */
export async function getMemory(principal: Principal, id: string, activity: ActivityNote = {}) {
  const prisma = await db();
  const memory = await prisma.memory.findFirst({
    where: {
      id,
      orgId: principal.orgId,
      namespace: { grants: { some: { apiKeyId: principal.keyId } } },
      AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
    },
  });
  if (!memory) throw notFound(`Memory ${id}`);
  activity.namespaceId = memory.namespaceId;
  activity.identityId = memory.identityId;
  return memory;
}

/** Deletes the memories matching every selector given (within the key's scopes), with their chunks and vectors. */
export async function forget(principal: Principal, body: ForgetBody, activity: ActivityNote = {}) {
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const params: unknown[] = [];
    const where = memoryFilterSql(
      { orgId: principal.orgId, namespaceId: namespace.id, scopes, identityId: body.identity_id, metadata: body.metadata, memoryIds: body.memory_ids },
      params,
      "m",
    );
    const doomed = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT m.id FROM memories m WHERE ${where} ORDER BY m.created_at, m.id`, ...params);
    const memoryIds = doomed.map((row) => row.id);
    for (let i = 0; i < memoryIds.length; i += ROWS_PER_STATEMENT * 10) {
      const batch = memoryIds.slice(i, i + ROWS_PER_STATEMENT * 10);
      const chunks = await tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM memory_chunks WHERE memory_id = ANY($1::text[])`, batch);
      await subtractTermStatistics(tx, namespace.id, chunks.map((c) => c.id));
      await tx.memory.deleteMany({ where: { id: { in: batch }, orgId: principal.orgId, namespaceId: namespace.id } });
    }
    return { namespace, deleted: memoryIds.length, memoryIds };
  });
}
