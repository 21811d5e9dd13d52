// The search index of memory chunks: the chunk rows with their vectors, their BM25 postings and the term
// statistics of their namespace and scope signature, written and moved together. Remember, update and
// import write through this; deleting (lib/memory/store/deletion.ts) takes the same statistics back.
import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { subtractScopeStatistics } from "./deletion";
import { lockNamespaceStatistics } from "@/lib/namespaces/statistics-lock";
import { TEXT_SEARCH_CONFIG_SQL, vectorParameter } from "../common/sql";
import { withWordBreaks } from "../common/word-breaks";

/** Chunk rows cost far more than memory rows (vector index, postings, statistics): this many per statement. */
export const CHUNKS_PER_STATEMENT = 32;

/** The fields of a memory that its chunks carry a copy of (search filters on them), as insertChunks reads them. */
export function chunkFields(memory: {
  metadata: unknown;
  scopes: unknown;
  identityId: string | null;
  sessionId: string | null;
  sessionPosition: number | null;
  role: string | null;
  occurredAt: Date;
  expiresAt: Date | null;
  validAt: Date;
  invalidAt?: Date | null;
  supersededBy?: string | null;
  supersession?: unknown;
}) {
  return {
    metadata: memory.metadata,
    scopes: memory.scopes,
    identity_id: memory.identityId,
    session_id: memory.sessionId,
    session_position: memory.sessionPosition,
    role: memory.role,
    occurred_at: memory.occurredAt.toISOString(),
    expires_at: memory.expiresAt?.toISOString() ?? null,
    valid_at: memory.validAt.toISOString(),
    invalid_at: memory.invalidAt?.toISOString() ?? null,
    superseded_by: memory.supersededBy ?? null,
    supersession_kind: (memory.supersession as { kind?: string } | null | undefined)?.kind ?? null,
  };
}

/**
 * Writes chunks with their BM25 postings and the namespace's term statistics in one statement, each
 * chunk's text tokenized once; chunks with scopes also count toward their scope signature's statistics
 * (what a key with scopes is scored over, lib/memory/search/search.ts). A conversation turn is indexed with who
 * said it: questions name people ("What did Caroline research?") while turns rarely name their speaker. Text in a
 * script written without spaces is indexed with spaces between its words (word-breaks.ts).
 */
export async function insertChunks(
  tx: Tx,
  orgId: string,
  namespaceId: string,
  model: string,
  now: Date,
  rows: ({ id: string; content: string; embedding: number[] } & Record<string, unknown>)[],
) {
  await lockNamespaceStatistics(tx, namespaceId);
  // The vectors go as parameters in pgvector's binary format, beside the rows' JSON: as text in it, each was
  // 10 KB to write on the server's thread and to parse in the database, a quarter of this statement's time there.
  const vectors = Prisma.join(rows.map((row) => Prisma.sql`(${row.id}, ${vectorParameter(row.embedding)}::vector)`));
  await tx.$executeRaw(
    indexStatement(
      namespaceId,
      rows.map(({ embedding: _embedding, ...row }) => row),
      Prisma.sql`INSERT INTO memory_chunks (id, org_id, namespace_id, memory_id, position, content, embedding,
                                  embedding_model, term_count, metadata, scopes, scope_key, identity_id, created_at,
                                  session_id, session_position, role, occurred_at, expires_at, valid_at, invalid_at,
                                  superseded_by, supersession_kind)
       SELECT i.id, ${orgId}, ${namespaceId}, i.memory_id, i.position, i.content, v.embedding, ${model},
              l.term_count, i.metadata, i.scopes, i.scope_key, i.identity_id, ${now.toISOString()}::timestamptz,
              i.session_id, i.session_position, i.role, i.occurred_at, i.expires_at, i.valid_at, i.invalid_at,
              i.superseded_by, i.supersession_kind
       FROM input i JOIN lengths l ON l.id = i.id JOIN (VALUES ${vectors}) AS v(id, embedding) ON v.id = i.id`,
    ),
  );
}

/**
 * Indexes chunks again whose postings and statistics were taken back (subtractTermStatistics) and deleted: their
 * terms read anew from `rows` (`id`, `content`, `role`, `scopes` as stored), their term counts updated, and the
 * namespace's and scope signature's statistics counting them again. For word-break-reindex.ts.
 */
export async function reindexChunks(
  tx: Tx,
  namespaceId: string,
  rows: { id: string; content: string; role: string | null; scopes: unknown }[],
) {
  await lockNamespaceStatistics(tx, namespaceId);
  await tx.$executeRaw(
    indexStatement(
      namespaceId,
      rows,
      Prisma.sql`UPDATE memory_chunks c SET term_count = l.term_count, needs_word_breaks = false
       FROM input i JOIN lengths l ON l.id = i.id
       WHERE c.namespace_id = ${namespaceId} AND c.id = i.id`,
    ),
  );
}

/**
 * The statement that indexes `rows`: `chunks` writes the chunk rows (from `input` and `lengths`), and the same
 * statement writes their postings and adds them to the statistics.
 */
function indexStatement(namespaceId: string, rows: { content: string }[], chunks: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`WITH input AS (
       SELECT u.*,
              to_tsvector(${TEXT_SEARCH_CONFIG_SQL},
                          concat_ws(': ', u.role, COALESCE(u.indexed_text, u.content))) AS tsv,
              CASE WHEN u.scopes <> '{}'::jsonb THEN md5(u.scopes::text) END AS scope_key
       FROM jsonb_to_recordset(${JSON.stringify(rows.map(withIndexedText))}::jsonb)
            AS u(id text, memory_id text, position int, content text, indexed_text text, metadata jsonb, scopes jsonb,
                 identity_id text, session_id text, session_position int, role text, occurred_at timestamptz,
                 expires_at timestamptz, valid_at timestamptz, invalid_at timestamptz, superseded_by text,
                 supersession_kind text)
     ),
     terms AS (
       SELECT i.id, t.lexeme, array_length(t.positions, 1) AS tf FROM input i, unnest(i.tsv) t
     ),
     lengths AS (
       SELECT i.id, COALESCE(sum(t.tf), 0)::int AS term_count
       FROM input i LEFT JOIN terms t ON t.id = i.id GROUP BY i.id
     ),
     chunks AS (
       ${chunks}
     ),
     postings AS (
       INSERT INTO chunk_terms (namespace_id, term, chunk_id, tf, term_count, scope_key)
       SELECT ${namespaceId}, t.lexeme, t.id, t.tf, l.term_count, i.scope_key
       FROM terms t JOIN lengths l ON l.id = t.id JOIN input i ON i.id = t.id
     ),
     statistics AS (
       INSERT INTO namespace_search_stats (namespace_id, chunk_count, total_terms)
       SELECT ${namespaceId}, count(*), COALESCE(sum(term_count), 0) FROM lengths
       ON CONFLICT (namespace_id) DO UPDATE SET chunk_count = namespace_search_stats.chunk_count + EXCLUDED.chunk_count,
                                                total_terms = namespace_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_statistics AS (
       INSERT INTO scope_search_stats (namespace_id, scope_key, scopes, chunk_count, total_terms)
       SELECT ${namespaceId}, i.scope_key, i.scopes, count(*), COALESCE(sum(l.term_count), 0)
       FROM input i JOIN lengths l ON l.id = i.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, i.scopes
       ON CONFLICT (namespace_id, scope_key) DO UPDATE
         SET chunk_count = scope_search_stats.chunk_count + EXCLUDED.chunk_count,
             total_terms = scope_search_stats.total_terms + EXCLUDED.total_terms
     ),
     scope_term_counts AS (
       INSERT INTO scope_terms (namespace_id, scope_key, term, df)
       SELECT ${namespaceId}, i.scope_key, t.lexeme, count(*)
       FROM terms t JOIN input i ON i.id = t.id WHERE i.scope_key IS NOT NULL GROUP BY i.scope_key, t.lexeme
       ON CONFLICT (namespace_id, scope_key, term) DO UPDATE SET df = scope_terms.df + EXCLUDED.df
     )
     INSERT INTO namespace_terms (namespace_id, term, df)
     SELECT ${namespaceId}, lexeme, count(*) FROM terms GROUP BY lexeme
     ON CONFLICT (namespace_id, term) DO UPDATE SET df = namespace_terms.df + EXCLUDED.df`;
}

/** A chunk row with the text its terms are read from, when that is not its content (word-breaks.ts). */
function withIndexedText<T extends { content: string }>(row: T): T & { indexed_text: string | null } {
  const indexed = withWordBreaks(row.content);
  return { ...row, indexed_text: indexed === row.content ? null : indexed };
}

/**
 * Moves chunks to another scope signature without touching their text (a memory's scopes changed): their
 * postings and their share of the old signature's statistics go to the new one; the namespace's own
 * statistics stay as they are.
 */
export async function moveChunkScopes(tx: Tx, namespaceId: string, chunkIds: string[], scopes: Scopes) {
  if (chunkIds.length === 0) return;
  await subtractScopeStatistics(tx, namespaceId, chunkIds);
  const scopesJson = JSON.stringify(scopes);
  // The signature as insertChunks computes it: md5 of the canonical jsonb text.
  await tx.$executeRaw(
    Prisma.sql`UPDATE memory_chunks
               SET scopes = ${scopesJson}::jsonb,
                   scope_key = CASE WHEN ${scopesJson}::jsonb <> '{}'::jsonb THEN md5(${scopesJson}::jsonb::text) END
               WHERE namespace_id = ${namespaceId} AND id = ANY(${chunkIds}::text[])`,
  );
  await tx.$executeRaw(
    Prisma.sql`UPDATE chunk_terms t SET scope_key = c.scope_key FROM memory_chunks c
               WHERE t.namespace_id = ${namespaceId} AND t.chunk_id = c.id AND c.id = ANY(${chunkIds}::text[])`,
  );
  if (Object.keys(scopes).length === 0) return;
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO scope_search_stats (namespace_id, scope_key, scopes, chunk_count, total_terms)
               SELECT ${namespaceId}, c.scope_key, c.scopes, count(*), COALESCE(sum(c.term_count), 0)
               FROM memory_chunks c
               WHERE c.namespace_id = ${namespaceId} AND c.id = ANY(${chunkIds}::text[])
               GROUP BY c.scope_key, c.scopes
               ON CONFLICT (namespace_id, scope_key) DO UPDATE
                 SET chunk_count = scope_search_stats.chunk_count + EXCLUDED.chunk_count,
                     total_terms = scope_search_stats.total_terms + EXCLUDED.total_terms`,
  );
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO scope_terms (namespace_id, scope_key, term, df)
               SELECT ${namespaceId}, t.scope_key, t.term, count(*) FROM chunk_terms t
               WHERE t.namespace_id = ${namespaceId} AND t.chunk_id = ANY(${chunkIds}::text[])
               GROUP BY t.scope_key, t.term
               ON CONFLICT (namespace_id, scope_key, term) DO UPDATE SET df = scope_terms.df + EXCLUDED.df`,
  );
}
