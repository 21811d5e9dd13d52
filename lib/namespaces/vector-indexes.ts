import { getDatabase, type Database } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

// One HNSW index of memory chunks per namespace past a size (lib/memory's EXACT_VECTOR_SCAN_LIMIT chunks),
// partial on its id (pgvector's advice for multi-tenant search), instead of one graph over every tenant's
// chunks: a namespace's nearest vectors are found among its own chunks only, at a cost that does not grow
// with what other tenants hold, and every vector leg filters on the namespace, so the planner picks it.
// Smaller namespaces are scanned exactly and need none (nor does their remember pay for one). Migration
// 20261124100000_namespace_vector_indexes replaced the shared index.

/**
 * Namespace ids as lib/ids makes them: an index name and a literal in DDL (which takes no parameters) are
 * built from nothing else.
 */
const NAMESPACE_ID = /^[A-Za-z0-9_]{1,40}$/;

function checkedNamespaceId(namespaceId: string): string {
  if (!NAMESPACE_ID.test(namespaceId))
    throw new Error(
      `Not a namespace id: ${JSON.stringify(namespaceId)} (an index name or literal is built from ids lib/ids made)`,
    );
  return namespaceId;
}

export function vectorIndexName(namespaceId: string): string {
  return `memory_chunks_embedding_${checkedNamespaceId(namespaceId)}`;
}

/**
 * The namespace's id as a literal, the predicate of its index: a statement kept parsed can use the index only
 * when its text says the namespace (a parameter could be any namespace). Throws for anything lib/ids did not make.
 */
export function namespaceIdLiteral(namespaceId: string): Prisma.Sql {
  return Prisma.raw(`'${checkedNamespaceId(namespaceId)}'`);
}

/** The DDL of the namespace's index, from a checked id only (vectorIndexName). */
function indexDdl(namespaceId: string, concurrently: boolean) {
  const name = Prisma.raw(`"${vectorIndexName(namespaceId)}"`);
  const how = concurrently ? Prisma.raw("CONCURRENTLY") : Prisma.empty;
  return {
    create: Prisma.sql`CREATE INDEX ${how} IF NOT EXISTS ${name} ON memory_chunks
     USING hnsw (embedding vector_cosine_ops) WHERE namespace_id = ${namespaceIdLiteral(namespaceId)}`,
    drop: Prisma.sql`DROP INDEX ${how} IF EXISTS ${name}`,
  };
}

/** Namespaces whose index this process has seen or built. */
const indexed = new Set<string>();
/** Builds run one after another: on the embedded database a build holds the only connection meanwhile. */
let builds: Promise<void> = Promise.resolve();

/**
 * Builds the namespace's index once it holds more than `beyondChunks` chunks, unless it has one;
 * in the background, after the write that made it grow. Until it exists its searches scan it exactly:
 * slower, never wrong. On PostgreSQL the build is CONCURRENTLY, so writes go on meanwhile.
 */
export function ensureNamespaceVectorIndex(namespaceId: string, beyondChunks: number): Promise<void> {
  if (indexed.has(namespaceId)) return builds;
  builds = builds
    .then(() => buildIfNeeded(namespaceId, beyondChunks))
    .catch((error) => console.error(`[memgw] building the vector index of namespace ${namespaceId} failed:`, error));
  return builds;
}

async function buildIfNeeded(namespaceId: string, beyondChunks: number) {
  if (indexed.has(namespaceId)) return;
  const database = await getDatabase();
  if ((await nextStep(database, namespaceId, beyondChunks)) === "leave") return;
  // A build or a repair, one instance at a time per namespace, looking again once it may: two instances that
  // both found the index invalid repaired it one after the other, and the second dropped the index the first had
  // just built. (Only then: every write to a small namespace comes here, and the lock takes a connection.)
  await database.oneAtATime(async () => {
    const step = await nextStep(database, namespaceId, beyondChunks);
    if (step === "leave") return;
    const ddl = indexDdl(namespaceId, database.kind === "postgres");
    if (step === "repair") {
      console.warn(
        `[memgw] the vector index of namespace ${namespaceId} is invalid (an interrupted build): rebuilding it.`,
      );
      await database.prisma.$executeRaw(ddl.drop);
    }
    await database.prisma.$executeRaw(ddl.create);
    indexed.add(namespaceId);
  }, `vector index ${namespaceId}`);
}

/**
 * What the namespace's index needs now: "leave" it (valid, which marks it indexed here; being built by another
 * instance; or not due, the namespace holding no more than `beyondChunks` chunks), "build" it, or "repair" it.
 * An index is there only once it is valid: a CREATE INDEX CONCURRENTLY that was interrupted (its server or its
 * instance stopped, a cancel) leaves an INVALID index that no search uses and every write still maintains.
 */
async function nextStep(database: Database, namespaceId: string, beyondChunks: number) {
  const quoted = `"${vectorIndexName(namespaceId)}"`;
  const [state] = await database.prisma.$queryRaw<
    { chunks: number; present: boolean; valid: boolean | null; building: boolean }[]
  >(
    Prisma.sql`SELECT
            COALESCE((SELECT chunk_count FROM namespace_search_stats WHERE namespace_id = ${namespaceId}), 0)::int
              AS chunks,
            to_regclass(${quoted}) IS NOT NULL AS present,
            (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(${quoted})) AS valid,
            EXISTS (SELECT 1 FROM pg_stat_progress_create_index WHERE index_relid = to_regclass(${quoted}))
              AS building`,
  );
  if (state.present && state.valid) {
    indexed.add(namespaceId);
    return "leave";
  }
  if (state.building || state.chunks <= beyondChunks) return "leave";
  return state.present ? "repair" : "build";
}

/** Drops a deleted namespace's index (after the deletion committed: on PostgreSQL, concurrently). */
export async function dropNamespaceVectorIndex(namespaceId: string): Promise<void> {
  const database = await getDatabase();
  indexed.delete(namespaceId);
  await database.prisma.$executeRaw(indexDdl(namespaceId, database.kind === "postgres").drop);
}
