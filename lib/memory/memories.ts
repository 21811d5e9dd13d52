import type { ActivityNote } from "@/lib/activity/activity";
import { notFound } from "@/lib/errors";
import { namespaceAccess, requesterOf, type Principal } from "@/lib/auth/principal";
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
// Chunk rows cost far more than memory rows (vector index, postings, statistics).
const CHUNKS_PER_STATEMENT = 32;
/**
 * A batch is written a few memories at a time, each group in a transaction of its own: PGlite has one
 * connection, and one transaction for a whole batch of 100 × 52,000 characters (3,000 chunks) held every
 * other write of every organization for over a minute. One embedding call's worth of chunks per group
 * (an organization's remember waits for at most one such group of another's: well under a second).
 */
const CHUNKS_PER_TRANSACTION = 32;

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
 * Stores memories: chunks them, embeds the chunks (outside any transaction; the embedder shares its time
 * fairly between organizations and keys), and writes memories, chunks, BM25 postings and term statistics a
 * group of memories at a time, each group as soon as its vectors are back. When it returns, recall finds
 * them all. Each memory is stored whole or not at all; a batch is all-or-nothing as far as a failure
 * within the request goes (what it had written is deleted again before the error is returned), but other
 * requests may see its first memories before it returns, and a process that dies mid-batch leaves those.
 */
export async function remember(principal: Principal, target: Target, items: MemoryItem[], activity: ActivityNote = {}) {
  const namespace = await resolveTarget(principal, target);
  activity.namespaceId = namespace.id;
  const prepared: PreparedMemory[] = [];
  for (const item of items) {
    const chunks = chunkText(item.content);
    prepared.push({
      id: newId("mem"),
      content: item.content,
      metadata: item.metadata ?? {},
      scopes: effectiveScopes(principal.scopes, item.scopes),
      identityId: item.identity_id ?? null,
      chunks,
    });
    // Splitting runs on the server's one thread (a 100 × 52,000-character batch: about a second of it):
    // other requests get a turn after each long memory instead of waiting for the whole batch.
    if (chunks.length > 1) await new Promise((resume) => setImmediate(resume));
  }
  const provider = embedder();
  const groups = transactionGroups(prepared);
  // Every group is queued for embedding now, in order; each is written while the next ones are embedded.
  const requester = requesterOf(principal);
  const embeddings = groups.map((group) =>
    provider.embed(
      group.flatMap((m) => m.chunks),
      "ingest",
      requester,
    ),
  );
  for (const pending of embeddings) pending.catch(() => undefined); // awaited in turn below, never unhandled

  const prisma = await db();
  const now = new Date();
  const written: string[] = [];
  try {
    for (const [index, group] of groups.entries()) {
      const vectors = await embeddings[index];
      await prisma.$transaction((tx) =>
        writeMemories(tx, principal, namespace.id, provider.model, now, group, vectors),
      );
      written.push(...group.map((m) => m.id));
    }
  } catch (error) {
    if (written.length > 0) {
      await prisma
        .$transaction((tx) => deleteMemories(tx, principal.orgId, namespace.id, written))
        .catch((cleanup) => console.error("[memgw] removing a failed batch's stored memories failed:", cleanup));
    }
    throw error;
  }
  noteSearchGrowth(prepared.reduce((sum, m) => sum + m.chunks.length, 0));
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
 * Replaces a memory's content and metadata in place (same id): the new text is chunked and embedded
 * first, then the old chunks leave the term statistics and the new ones take their place in one
 * transaction, so recall sees the old memory or the new one, never neither. A memory that is gone
 * (forgotten meanwhile) is not found.
 */
export async function replaceMemoryContent(
  principal: Principal,
  memoryId: string,
  replacement: { content: string; metadata: Metadata },
) {
  const existing = await getMemory(principal, memoryId);
  const chunks = chunkText(replacement.content);
  const provider = embedder();
  const vectors = await provider.embed(chunks, "ingest", requesterOf(principal));
  const prisma = await db();
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM memories WHERE id = $1 AND org_id = $2 AND namespace_id = $3 FOR UPDATE`,
      memoryId,
      principal.orgId,
      existing.namespaceId,
    );
    if (locked.length === 0) throw notFound(`Memory ${memoryId}`);
    const oldChunks = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM memory_chunks WHERE org_id = $1 AND memory_id = $2`,
      principal.orgId,
      memoryId,
    );
    const oldChunkIds = oldChunks.map((chunk) => chunk.id);
    await subtractTermStatistics(tx, existing.namespaceId, oldChunkIds);
    await tx.$executeRawUnsafe(
      `DELETE FROM memory_chunks WHERE org_id = $1 AND id = ANY($2::text[])`,
      principal.orgId,
      oldChunkIds,
    );
    await tx.memory.update({
      where: { id: memoryId, orgId: principal.orgId },
      data: { content: replacement.content, metadata: replacement.metadata, chunkCount: chunks.length, updatedAt: now },
    });
    const rows = chunks.map((content, position) => ({
      id: newId("chk"),
      memory_id: memoryId,
      position,
      content,
      metadata: replacement.metadata,
      scopes: existing.scopes,
      identity_id: existing.identityId,
      embedding: vectorLiteral(vectors[position]),
    }));
    for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
      const statement = rows.slice(i, i + CHUNKS_PER_STATEMENT);
      await insertChunks(tx, principal.orgId, existing.namespaceId, provider.model, now, statement);
    }
  });
  noteSearchGrowth(chunks.length);
  return { ...existing, content: replacement.content, metadata: replacement.metadata, updatedAt: now };
}

/** Consecutive memories, as many as fit in CHUNKS_PER_TRANSACTION chunks (at least one memory each). */
function transactionGroups(memories: PreparedMemory[]): PreparedMemory[][] {
  const groups: PreparedMemory[][] = [];
  let chunks = Infinity;
  for (const memory of memories) {
    if (chunks + memory.chunks.length > CHUNKS_PER_TRANSACTION) {
      groups.push([]);
      chunks = 0;
    }
    groups[groups.length - 1].push(memory);
    chunks += memory.chunks.length;
  }
  return groups;
}

/** Writes memories and their chunks (`vectors`: one per chunk, in order), in short statements. */
async function writeMemories(
  tx: Tx,
  principal: Principal,
  namespaceId: string,
  model: string,
  now: Date,
  memories: PreparedMemory[],
  vectors: number[][],
) {
  for (let i = 0; i < memories.length; i += ROWS_PER_STATEMENT) {
    await tx.memory.createMany({
      data: memories.slice(i, i + ROWS_PER_STATEMENT).map((m) => ({
        id: m.id,
        orgId: principal.orgId,
        namespaceId,
        content: m.content,
        metadata: m.metadata,
        scopes: m.scopes,
        identityId: m.identityId,
        apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
        chunkCount: m.chunks.length,
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  const chunkRows = memories.flatMap((memory) =>
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
  const rows = chunkRows.map((row, i) => ({ ...row, embedding: vectorLiteral(vectors[i]) }));
  for (let i = 0; i < rows.length; i += CHUNKS_PER_STATEMENT) {
    await insertChunks(tx, principal.orgId, namespaceId, model, now, rows.slice(i, i + CHUNKS_PER_STATEMENT));
  }
}

/**
 * Writes chunks with their BM25 postings and the namespace's term statistics in one statement, each
 * chunk's text tokenized once; chunks with scopes also count toward their scope signature's statistics
 * (what a key with scopes is scored over, lib/memory/search.ts).
 */
async function insertChunks(tx: Tx, orgId: string, namespaceId: string, model: string, now: Date, rows: object[]) {
  await tx.$executeRawUnsafe(
    `WITH input AS (
       SELECT u.*, to_tsvector('${TEXT_SEARCH_CONFIG}', u.content) AS tsv,
              CASE WHEN u.scopes <> '{}'::jsonb THEN md5(u.scopes::text) END AS scope_key
       FROM jsonb_to_recordset($5::jsonb) AS u(id text, memory_id text, position int, content text, embedding text,
                                              metadata jsonb, scopes jsonb, identity_id text)
     ),
     terms AS (
       SELECT i.id, t.lexeme, array_length(t.positions, 1) AS tf FROM input i, unnest(i.tsv) t
     ),
     lengths AS (
       SELECT i.id, COALESCE(sum(t.tf), 0)::int AS term_count
       FROM input i LEFT JOIN terms t ON t.id = i.id GROUP BY i.id
     ),
     chunks AS (
       INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding, embedding_model,
                                  term_count, metadata, scopes, scope_key, identity_id, created_at)
       SELECT i.id, $1, $2, i.memory_id, i.position, i.content, i.embedding::vector, $3, l.term_count,
              i.metadata, i.scopes, i.scope_key, i.identity_id, $4::timestamptz
       FROM input i JOIN lengths l ON l.id = i.id
     ),
     postings AS (
       INSERT INTO chunk_terms (namespace_id, term, chunk_id, tf, term_count, scope_key)
       SELECT $2, t.lexeme, t.id, t.tf, l.term_count, i.scope_key
       FROM terms t JOIN lengths l ON l.id = t.id JOIN input i ON i.id = t.id
     ),
     statistics AS (
       INSERT INTO namespace_search_stats (namespace_id, chunk_count, total_terms)
       SELECT $2, count(*), COALESCE(sum(term_count), 0) FROM lengths
       ON CONFLICT (namespace_id) DO UPDATE SET chunk_count = namespace_search_stats.chunk_count + EXCLUDED.chunk_count,
                                                total_terms = namespace_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_statistics AS (
       INSERT INTO scope_search_stats (namespace_id, scope_key, scopes, chunk_count, total_terms)
       SELECT $2, i.scope_key, i.scopes, count(*), COALESCE(sum(l.term_count), 0)
       FROM input i JOIN lengths l ON l.id = i.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, i.scopes
       ON CONFLICT (namespace_id, scope_key) DO UPDATE
         SET chunk_count = scope_search_stats.chunk_count + EXCLUDED.chunk_count,
             total_terms = scope_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_term_counts AS (
       INSERT INTO scope_terms (namespace_id, scope_key, term, df)
       SELECT $2, i.scope_key, t.lexeme, count(*)
       FROM terms t JOIN input i ON i.id = t.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, t.lexeme
       ON CONFLICT (namespace_id, scope_key, term) DO UPDATE SET df = scope_terms.df + EXCLUDED.df
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

/**
 * Takes chunks about to be deleted out of the document frequencies and length totals of their namespace
 * and of their scope signature.
 */
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
     FROM (SELECT count(*) AS n, COALESCE(sum(term_count), 0) AS terms
           FROM memory_chunks WHERE id = ANY($2::text[])) gone
     WHERE s.namespace_id = $1`,
    namespaceId,
    chunkIds,
  );
  const [scoped] = await tx.$queryRawUnsafe<{ any: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM memory_chunks WHERE id = ANY($1::text[]) AND scope_key IS NOT NULL) AS any`,
    chunkIds,
  );
  if (!scoped.any) return;
  await tx.$executeRawUnsafe(
    `UPDATE scope_terms t SET df = t.df - gone.n
     FROM (SELECT scope_key, term, count(*) AS n FROM chunk_terms
           WHERE chunk_id = ANY($2::text[]) AND scope_key IS NOT NULL GROUP BY scope_key, term) gone
     WHERE t.namespace_id = $1 AND t.scope_key = gone.scope_key AND t.term = gone.term`,
    namespaceId,
    chunkIds,
  );
  await tx.$executeRawUnsafe(`DELETE FROM scope_terms WHERE namespace_id = $1 AND df <= 0`, namespaceId);
  await tx.$executeRawUnsafe(
    `UPDATE scope_search_stats s SET chunk_count = s.chunk_count - gone.n, total_terms = s.total_terms - gone.terms
     FROM (SELECT scope_key, count(*) AS n, COALESCE(sum(term_count), 0) AS terms
           FROM memory_chunks WHERE id = ANY($2::text[]) AND scope_key IS NOT NULL GROUP BY scope_key) gone
     WHERE s.namespace_id = $1 AND s.scope_key = gone.scope_key`,
    namespaceId,
    chunkIds,
  );
  await tx.$executeRawUnsafe(
    `DELETE FROM scope_search_stats WHERE namespace_id = $1 AND chunk_count <= 0`,
    namespaceId,
  );
}

/** One memory, if it is in a namespace granted to the principal and carries all of the principal's scopes. */
export async function getMemory(principal: Principal, id: string, activity: ActivityNote = {}) {
  const prisma = await db();
  const memory = await prisma.memory.findFirst({
    where: {
      id,
      orgId: principal.orgId,
      namespace: namespaceAccess(principal),
      AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
    },
  });
  if (!memory) throw notFound(`Memory ${id}`);
  activity.namespaceId = memory.namespaceId;
  activity.identityId = memory.identityId;
  return memory;
}

/**
 * Deletes the memories matching every selector given (within the key's scopes), with their chunks and vectors.
 * `inTransaction` runs in the deletion's transaction (a console deletion's audit entry; throwing undoes it).
 */
export async function forget(
  principal: Principal,
  body: ForgetBody,
  activity: ActivityNote = {},
  inTransaction?: (tx: Tx, forgotten: { namespaceId: string; memoryIds: string[] }) => Promise<void>,
) {
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  const scopes = effectiveScopes(principal.scopes, body.scopes);
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const params: unknown[] = [];
    const where = memoryFilterSql(
      {
        orgId: principal.orgId,
        namespaceId: namespace.id,
        scopes,
        identityId: body.identity_id,
        metadata: body.metadata,
        memoryIds: body.memory_ids,
      },
      params,
      "m",
    );
    const doomed = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT m.id FROM memories m WHERE ${where} ORDER BY m.created_at, m.id`,
      ...params,
    );
    const memoryIds = doomed.map((row) => row.id);
    await deleteMemories(tx, principal.orgId, namespace.id, memoryIds);
    await inTransaction?.(tx, { namespaceId: namespace.id, memoryIds });
    return { namespace, deleted: memoryIds.length, memoryIds };
  });
}

/**
 * Deletes memories of one namespace with their chunks and vectors, taking the chunks out of the term
 * statistics: the one deletion path (forget, a failed batch, forgetting an identity).
 */
export async function deleteMemories(tx: Tx, orgId: string, namespaceId: string, memoryIds: string[]) {
  for (let i = 0; i < memoryIds.length; i += ROWS_PER_STATEMENT * 10) {
    const batch = memoryIds.slice(i, i + ROWS_PER_STATEMENT * 10);
    const chunks = await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT id FROM memory_chunks WHERE org_id = $1 AND memory_id = ANY($2::text[])`,
      orgId,
      batch,
    );
    await subtractTermStatistics(
      tx,
      namespaceId,
      chunks.map((c) => c.id),
    );
    await tx.memory.deleteMany({ where: { id: { in: batch }, orgId, namespaceId } });
  }
}
