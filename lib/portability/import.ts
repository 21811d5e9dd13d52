import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { requesterOf, type Principal } from "@/lib/auth/principal";
import { db, type Tx } from "@/lib/db";
import { namespaceNotFound } from "@/lib/errors";
import { enqueueJob, wakeJobWorkers } from "@/lib/jobs/queue";
import { Prisma, type Namespace } from "@/lib/generated/prisma/client";
import { recordEvents, recordMemoryEvents } from "@/lib/event-recording/record-events";
import { newId } from "@/lib/ids";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { hasVisibleText } from "@/lib/validation/strings";
import { chunkText } from "@/lib/memory/store/chunking";
import { embedder } from "@/lib/memory/embeddings";
import { type ExportDocument, type ExportMemory } from "./export-format";
import { type ImportedVersion, writeImportedHistory } from "@/lib/memory/store/history";
import { reservePositions } from "@/lib/memory/write/conversation-positions";
import { ingestionJob } from "@/lib/documents/ingestion-job";
import { deleteOriginalParts, writeOriginalParts } from "@/lib/documents/document-originals";
import { contentHash } from "@/lib/memory/write/memory-fields";
import { linkEntities } from "@/lib/memory/entities/link-entities";
import { chunkFields, insertChunks } from "@/lib/memory/store/search-index";
import { noteSearchGrowth } from "@/lib/memory/search/search-maintenance";
import { crashPoint, WriteIntent } from "@/lib/memory/store/write-intents";
import { type ImportTarget, type Spool, validateLines } from "./import-lines";
import { linkReplacements } from "@/lib/memory/validity/supersession";

/** The last transaction creates the documents, whose originals were written before it (a part at a time). */
const DOCUMENTS_WRITE = { timeout: 60_000 };

/** Memories written per transaction, at most: as remember, a short hold of the one embedded connection. */
const CHUNKS_PER_TRANSACTION = 32;
const CHUNKS_PER_STATEMENT = 32;

/** Whom an import writes for: the namespace, the scopes every line must carry, and who is charged for it. */

export interface ImportResult {
  imported: number;
  skipped_expired: number;
  memory_ids: string[];
  document_ids: string[];
}

/**
 * Imports an export (lib/portability/export-format.ts) into a namespace granted to the principal: the body is
 * read as it arrives and every line validated first (400 naming the first bad line, 403 for a line outside
 * a key's scopes, 413 past IMPORT_LIMITS, 400 for two turns in one place), nothing written until all are
 * valid. Then all or nothing, across a crash too (a write intent, lib/memory/store/write-intents.ts): a failure
 * midway deletes what the import had written before the error is returned, a process that dies midway is
 * rolled back at start-up or by another instance (other requests may see those memories meanwhile, as
 * with a remember batch).
 */
export async function importNamespace(
  principal: Principal,
  namespaceId: string,
  body: AsyncIterable<Uint8Array>,
): Promise<ImportResult> {
  const namespace = await getNamespace(principal, namespaceId);
  return importLines(
    {
      namespace,
      scopes: principal.scopes,
      apiKeyId: principal.kind === "api_key" ? principal.keyId : null,
      requester: requesterOf(principal),
    },
    body,
  );
}

/** The same for the operator (`npx memgw import`): any namespace, by id, memories of any scopes. */
export async function importNamespaceForOperator(namespaceId: string, body: AsyncIterable<Uint8Array>) {
  const namespace = await (await db()).namespace.findUnique({ where: { id: namespaceId } });
  if (!namespace) throw namespaceNotFound(`Namespace ${namespaceId}`);
  return importLines({ namespace, scopes: {}, apiKeyId: null, requester: { orgId: namespace.orgId } }, body);
}

async function importLines(target: ImportTarget, body: AsyncIterable<Uint8Array>): Promise<ImportResult> {
  // The valid lines wait on disk between the two passes, so an import of any size is never held in memory.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "memgw-import-"));
  const documents: StoredDocument[] = [];
  try {
    const spool = { memories: path.join(dir, "memories.ndjson"), documents: path.join(dir, "documents.ndjson") };
    await validateLines(target, body, spool);
    // The originals first, a part a statement (lib/documents/document-originals.ts): the transaction that makes
    // them documents stays short. They are deleted if the import fails, swept if the process dies.
    await storeImportedOriginals(target, spool.documents, documents);
    return await writeLines(target, spool, documents);
  } catch (error) {
    for (const document of documents) {
      await deleteOriginalParts({ orgId: target.namespace.orgId, documentId: document.id }).catch(() => undefined);
    }
    // Nothing of it stays (a failed import is rolled back): the event says so and why.
    const { orgId, id: namespaceId } = target.namespace;
    await (
      await db()
    )
      .$transaction((tx) =>
        recordEvents(tx, orgId, [
          { type: "import.failed", namespaceId, data: { error: (error as Error).message.slice(0, 1_000) } },
        ]),
      )
      .catch((failure) => console.error("[memgw] recording a failed import's event failed:", failure));
    throw error;
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

interface PreparedImport {
  line: ExportMemory;
  id: string;
  chunks: string[];
  /** The line's vectors, when the current model made them for exactly these chunks. */
  vectors?: number[][];
  derivedFrom: string[];
}

/**
 * The second pass: reads the spooled lines back and writes them, a few memories per transaction, as one
 * write intent (lib/memory/store/write-intents.ts): a failure, or a process that dies, rolls back all of it.
 */
async function writeLines(target: ImportTarget, spool: Spool, documents: StoredDocument[]): Promise<ImportResult> {
  const provider = embedder();
  const prisma = await db();
  const intent = new WriteIntent(target.namespace.orgId, target.namespace.id, "import");
  const authors = new AuthorCheck(target.namespace.orgId);
  const written: string[] = [];
  let skippedExpired = 0;
  let chunkCount = 0;
  let group: PreparedImport[] = [];
  // The exported ids of the file's memories, by the new id each gets, and which one replaced which.
  const newIds = new Map<string, string>();
  const replacedBy: { id: string; by: string }[] = [];
  let groupChunks = 0;
  let groups = 0;
  let documentIds: string[] = [];
  const flush = async (last: boolean) => {
    if (group.length === 0 && !(last && intent.isOpen)) {
      // No memory lines: the documents are the whole import, in a transaction of their own.
      if (last) {
        documentIds = await prisma.$transaction(async (tx) => {
          const ids = await queueImportedDocuments(tx, target, documents);
          await recordImportCompleted(tx, target, {
            imported: 0,
            skipped_expired: skippedExpired,
            documents: ids.length,
          });
          return ids;
        }, DOCUMENTS_WRITE);
      }
      return;
    }
    const pending = group;
    group = [];
    groupChunks = 0;
    const texts = pending.flatMap((memory) => (memory.vectors ? [] : memory.chunks));
    const embedded = texts.length > 0 ? await provider.embed(texts, "ingest", target.requester) : [];
    let next = 0;
    for (const memory of pending) memory.vectors ??= memory.chunks.map(() => embedded[next++]);
    await authors.resolve(pending.flatMap((memory) => memory.line.history));
    await prisma.$transaction(async (tx) => {
      if (!intent.isOpen) await intent.open(tx);
      await intent.record(
        tx,
        pending.map((memory) => memory.id),
      );
      await writeGroup(tx, target, provider.model, pending, authors);
      if (last) {
        // With the last memories, so that the import is whole or absent, across a crash too.
        await linkReplacements(
          tx,
          target.namespace.orgId,
          replacedBy.flatMap(({ id, by }) => (newIds.has(by) ? [{ id, by: newIds.get(by)! }] : [])),
        );
        documentIds = await queueImportedDocuments(tx, target, documents);
        await recordImportCompleted(tx, target, {
          imported: written.length + pending.length,
          skipped_expired: skippedExpired,
          documents: documentIds.length,
        });
        await intent.complete(tx);
      }
    }, DOCUMENTS_WRITE);
    written.push(...pending.map((memory) => memory.id));
    groups += 1;
    crashPoint(`import.group.${groups}`);
  };
  try {
    const lines = readline.createInterface({ input: fs.createReadStream(spool.memories), crlfDelay: Infinity });
    for await (const text of lines) {
      const line = JSON.parse(text) as ExportMemory;
      if (line.expires_at !== null && Date.parse(line.expires_at) <= Date.now()) {
        skippedExpired++;
        continue;
      }
      const chunks = chunkText(line.content);
      if (groupChunks + chunks.length > CHUNKS_PER_TRANSACTION) await flush(false);
      const id = newId("mem");
      newIds.set(line.id, id);
      if (line.superseded_by) replacedBy.push({ id, by: line.superseded_by });
      const derivedFrom = (line.derived_from ?? []).flatMap((s) => newIds.get(s) ?? []);
      group.push({ line, id, chunks, vectors: reusableVectors(line, chunks, provider.model), derivedFrom });
      groupChunks += chunks.length;
      chunkCount += chunks.length;
    }
    await flush(true);
    intent.finish();
  } catch (error) {
    await intent
      .rollBack()
      .catch((cleanup) => console.error("[memgw] rolling back a failed import failed (swept later):", cleanup));
    throw error;
  }
  noteSearchGrowth(target.namespace.id, chunkCount);
  if (documentIds.length > 0) wakeJobWorkers();
  return { imported: written.length, skipped_expired: skippedExpired, memory_ids: written, document_ids: documentIds };
}

function recordImportCompleted(
  tx: Tx,
  target: ImportTarget,
  counts: { imported: number; skipped_expired: number; documents: number },
) {
  return recordEvents(tx, target.namespace.orgId, [
    { type: "import.completed", namespaceId: target.namespace.id, data: counts },
  ]);
}
/** A spooled document line whose original is stored under the id its document will have. */
type StoredDocument = Omit<ExportDocument, "original"> & { id: string; byteSize: number };

/**
 * Writes the originals of the spooled documents' lines, one at a time, as parts of documents yet to be; each is
 * in `stored` (to be deleted should the import fail) before its first part is written.
 */
async function storeImportedOriginals(target: ImportTarget, spool: string, stored: StoredDocument[]): Promise<void> {
  const lines = readline.createInterface({ input: fs.createReadStream(spool), crlfDelay: Infinity });
  for await (const text of lines) {
    const { original: base64, ...line } = JSON.parse(text) as ExportDocument;
    const original = Buffer.from(base64, "base64");
    const document = { ...line, id: newId("doc"), byteSize: original.length };
    stored.push(document);
    await writeOriginalParts({ orgId: target.namespace.orgId, documentId: document.id }, original);
  }
}

/** The stored documents as new documents of the namespace, each queued to be processed from its original. */
async function queueImportedDocuments(tx: Tx, target: ImportTarget, documents: StoredDocument[]): Promise<string[]> {
  const ids: string[] = [];
  for (const line of documents) {
    const document = await tx.document.create({
      data: {
        id: line.id,
        orgId: target.namespace.orgId,
        namespaceId: target.namespace.id,
        identityId: line.identity_id,
        apiKeyId: target.apiKeyId,
        // An export from before invisible text counted as blank may hold such a title: the file's own is used.
        title: line.title !== null && hasVisibleText(line.title) ? line.title : null,
        contentType: line.content_type,
        sourceUrl: line.source_url,
        filename: line.filename,
        metadata: line.metadata,
        scopes: line.scopes,
        byteSize: line.byteSize,
        status: "queued",
      },
      select: { id: true, orgId: true },
    });
    await enqueueJob(ingestionJob(document), tx);
    ids.push(document.id);
  }
  return ids;
}

/**
 * The line's vectors when they can stand for the chunks this server makes of its content: made by the
 * model now in use, for the same chunk texts in the same order. Otherwise the content is embedded again.
 */
function reusableVectors(line: ExportMemory, chunks: string[], model: string): number[][] | undefined {
  if (line.embedding_model !== model || !line.chunks || line.chunks.length !== chunks.length) return undefined;
  const ordered = [...line.chunks].sort((a, b) => a.position - b.position);
  const same = ordered.every((chunk, i) => chunk.position === i && chunk.content === chunks[i]);
  return same ? ordered.map((chunk) => chunk.vector) : undefined;
}

type Author = ImportedVersion["changed_by"];

/**
 * Imported authors are kept only when they belong to the importing organization (a member, one of its API
 * keys or integration connections); any other author, or one without an id, is imported as not recorded.
 */
class AuthorCheck {
  private readonly known = new Map<string, boolean>();

  constructor(private readonly orgId: string) {}

  /** Looks up the authors of `versions` not seen yet. */
  async resolve(versions: ImportedVersion[]): Promise<void> {
    const wanted = new Map<string, Set<string>>();
    for (const { changed_by: author } of versions) {
      if (!author?.id || this.known.has(this.keyOf(author))) continue;
      const ids = wanted.get(author.kind) ?? new Set<string>();
      ids.add(author.id);
      wanted.set(author.kind, ids);
    }
    if (wanted.size === 0) return;
    const prisma = await db();
    const tables: Record<string, (orgId: string, ids: string[]) => Prisma.Sql> = {
      user: (orgId, ids) =>
        Prisma.sql`SELECT user_id AS id FROM memberships WHERE org_id = ${orgId} AND user_id = ANY(${ids}::text[])`,
      api_key: (orgId, ids) => Prisma.sql`SELECT id FROM api_keys WHERE org_id = ${orgId} AND id = ANY(${ids}::text[])`,
      integration: (orgId, ids) =>
        Prisma.sql`SELECT id FROM integration_connections WHERE org_id = ${orgId} AND id = ANY(${ids}::text[])`,
    };
    for (const [kind, ids] of wanted) {
      const found = new Set(
        (await prisma.$queryRaw<{ id: string }[]>(tables[kind](this.orgId, [...ids]))).map((row) => row.id),
      );
      for (const id of ids) this.known.set(JSON.stringify([kind, id]), found.has(id));
    }
  }

  /** The author as imported: as given when of this organization, otherwise null. */
  author(author: Author): Author {
    return author?.id && this.known.get(this.keyOf(author)) ? author : null;
  }

  private keyOf(author: NonNullable<Author>) {
    return JSON.stringify([author.kind, author.id]);
  }
}

/** Writes a group's memories, their chunks (postings and statistics with them) and their history. */
async function writeGroup(
  tx: Tx,
  target: ImportTarget,
  model: string,
  memories: PreparedImport[],
  authors: AuthorCheck,
) {
  const { namespace } = target;
  await appendTurns(tx, target, memories);
  const rows = memories.map(({ line, id, chunks, derivedFrom }) => ({
    id,
    orgId: namespace.orgId,
    namespaceId: namespace.id,
    content: line.content,
    contentHash: contentHash(line.content),
    metadata: line.metadata,
    scopes: line.scopes,
    identityId: line.identity_id,
    apiKeyId: target.apiKeyId,
    chunkCount: chunks.length,
    sessionId: line.session_id,
    sessionPosition: line.position,
    role: line.role,
    occurredAt: new Date(line.occurred_at),
    expiresAt: line.expires_at === null ? null : new Date(line.expires_at),
    // Validity comes along; what replaced a memory is linked once every line is in (linkReplacements).
    validAt: new Date(line.valid_at ?? line.occurred_at),
    invalidAt: line.invalid_at ? new Date(line.invalid_at) : null,
    supersession: line.supersession ?? Prisma.DbNull,
    factKey: line.fact_key ?? null,
    kind: line.kind ?? "memory",
    derivedFrom,
    version: line.version,
    createdAt: new Date(line.created_at),
    updatedAt: new Date(line.updated_at),
  }));
  await tx.memory.createMany({ data: rows });
  // Chunks are dated like their memory (recall's created_at); one statement per run of equal dates.
  let statement: Parameters<typeof insertChunks>[5] = [];
  let statementDate: Date | undefined;
  const writeStatement = async () => {
    if (statement.length > 0) await insertChunks(tx, namespace.orgId, namespace.id, model, statementDate!, statement);
    statement = [];
  };
  for (const [index, memory] of memories.entries()) {
    const row = rows[index];
    if (statementDate?.getTime() !== row.createdAt.getTime() || statement.length >= CHUNKS_PER_STATEMENT) {
      await writeStatement();
      statementDate = row.createdAt;
    }
    for (const [position, content] of memory.chunks.entries()) {
      statement.push({
        id: newId("chk"),
        memory_id: memory.id,
        position,
        content,
        ...chunkFields(row),
        embedding: memory.vectors![position],
      });
    }
  }
  await writeStatement();
  await linkEntities(tx, namespace.orgId, namespace.id, rows);
  await recordMemoryEvents(
    tx,
    namespace.orgId,
    "memory.created",
    rows.map((row) => row.id),
    { source: "import" },
  );
  // The history's order was checked with the line (ExportMemorySchema): the writer finds nothing to refuse.
  for (const memory of memories) {
    await writeImportedHistory(
      tx,
      { orgId: namespace.orgId, namespaceId: namespace.id, memoryId: memory.id },
      memory.line.history.map((version) => ({ ...version, changed_by: authors.author(version.changed_by) })),
    );
  }
  await advanceSessions(tx, namespace, memories);
}

/**
 * Turns from elsewhere take their sessions' next positions, in the order of their lines, reserved as
 * `remember` reserves them (a key with scopes cannot append to a session holding turns it may not see).
 */
async function appendTurns(tx: Tx, target: ImportTarget, memories: PreparedImport[]) {
  const bySession = new Map<string, ExportMemory[]>();
  for (const { line } of memories) {
    if (line.session_id === null || line.position !== null) continue;
    bySession.set(line.session_id, [...(bySession.get(line.session_id) ?? []), line]);
  }
  const writer = { orgId: target.namespace.orgId, scopes: target.scopes };
  for (const [sessionId, lines] of bySession) {
    const { first } = await reservePositions(tx, writer, target.namespace.id, sessionId, lines.length);
    for (const [index, line] of lines.entries()) line.position = first + index;
  }
}

/** Appending to an imported conversation continues after its last imported turn. */
async function advanceSessions(tx: Tx, namespace: Namespace, memories: PreparedImport[]) {
  const next = new Map<string, number>();
  for (const { line } of memories) {
    if (line.session_id === null || line.position === null) continue;
    next.set(line.session_id, Math.max(next.get(line.session_id) ?? 0, line.position + 1));
  }
  if (next.size === 0) return;
  const sessions = JSON.stringify([...next].map(([session_id, next_position]) => ({ session_id, next_position })));
  await tx.$executeRaw(
    Prisma.sql`INSERT INTO conversation_sessions (namespace_id, session_id, org_id, next_position)
     SELECT ${namespace.id}, s.session_id, ${namespace.orgId}, s.next_position
     FROM jsonb_to_recordset(${sessions}::jsonb) AS s(session_id text, next_position int)
     ON CONFLICT (namespace_id, session_id) DO UPDATE
       SET next_position = GREATEST(conversation_sessions.next_position, EXCLUDED.next_position)`,
  );
}
