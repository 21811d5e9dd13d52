import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "./api";

export async function rememberAll(key: string, namespaceId: string, memories: Record<string, unknown>[]) {
  const response = await api("POST", "/remember", { key, body: { namespace_id: namespaceId, memories } });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data as {
    id: string;
    content: string;
    scopes: Record<string, string>;
    identity_id: string | null;
  }[];
}

export async function recallContents(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/recall", { key, body });
  if (response.status !== 200) throw new Error(`recall failed: ${JSON.stringify(response.body)}`);
  return (response.body.data as { content: string }[]).map((m) => m.content);
}

/** What is stored for a namespace, row counts of every table a memory lives in. */
export async function storedCounts(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<
    { memories: number; chunks: number; postings: number; terms: number; stats_chunks: number | null }[]
  >(
    Prisma.sql`SELECT (SELECT count(*)::int FROM memories WHERE namespace_id = ${namespaceId}) AS memories,
            (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = ${namespaceId}) AS chunks,
            (SELECT count(*)::int FROM chunk_terms WHERE namespace_id = ${namespaceId}) AS postings,
            (SELECT count(*)::int FROM namespace_terms WHERE namespace_id = ${namespaceId}) AS terms,
            (SELECT chunk_count FROM namespace_search_stats WHERE namespace_id = ${namespaceId}) AS stats_chunks`,
  );
  return row;
}

/** BM25 statistics must always equal what the postings say. */
export async function termStatisticsConsistent(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ mismatches: number }[]>(
    Prisma.sql`SELECT count(*)::int AS mismatches FROM (
       SELECT term, count(*) AS df FROM chunk_terms WHERE namespace_id = ${namespaceId} GROUP BY term
     ) p FULL JOIN (SELECT term, df FROM namespace_terms WHERE namespace_id = ${namespaceId}) t USING (term)
     WHERE p.df IS DISTINCT FROM t.df`,
  );
  return row.mismatches === 0;
}
