import { db } from "@/lib/db";
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
  const [row] = await prisma.$queryRawUnsafe<
    { memories: number; chunks: number; postings: number; terms: number; stats_chunks: number | null }[]
  >(
    `SELECT (SELECT count(*)::int FROM memories WHERE namespace_id = $1) AS memories,
            (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = $1) AS chunks,
            (SELECT count(*)::int FROM chunk_terms WHERE namespace_id = $1) AS postings,
            (SELECT count(*)::int FROM namespace_terms WHERE namespace_id = $1) AS terms,
            (SELECT chunk_count FROM namespace_search_stats WHERE namespace_id = $1) AS stats_chunks`,
    namespaceId,
  );
  return row;
}

/** BM25 statistics must always equal what the postings say. */
export async function termStatisticsConsistent(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRawUnsafe<{ mismatches: number }[]>(
    `SELECT count(*)::int AS mismatches FROM (
       SELECT term, count(*) AS df FROM chunk_terms WHERE namespace_id = $1 GROUP BY term
     ) p FULL JOIN (SELECT term, df FROM namespace_terms WHERE namespace_id = $1) t USING (term)
     WHERE p.df IS DISTINCT FROM t.df`,
    namespaceId,
  );
  return row.mismatches === 0;
}
