import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import type { z } from "zod";
import { requesterOf, type Principal } from "@/lib/auth/principal";
import type { Scopes } from "@/lib/auth/scopes";
import { db, type Tx } from "@/lib/db";
import { ForbiddenError, InvalidError, issueDetails, notFound } from "@/lib/errors";
import type { Namespace } from "@/lib/generated/prisma/client";
import { ndjsonLines } from "@/lib/http/ndjson";
import { newId } from "@/lib/ids";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { chunkText } from "./chunking";
import { embedder } from "./embeddings";
import type { EmbeddingRequester } from "./embeddings/provider";
import { ExportHeaderSchema, type ExportMemory, ExportMemorySchema, IMPORT_LIMITS } from "./export-format";
import { writeImportedHistory } from "./history";
import { chunkFields, contentHash, deleteMemories, insertChunks } from "./memories";
import { noteSearchGrowth } from "./search-maintenance";
import { vectorLiteral } from "./sql";

/** Memories written per transaction, at most: as remember, a short hold of the one embedded connection. */
const CHUNKS_PER_TRANSACTION = 32;
const CHUNKS_PER_STATEMENT = 32;

/** Whom an import writes for: the namespace, the scopes every line must carry, and who is charged for it. */
interface ImportTarget {
  namespace: Namespace;
  scopes: Scopes;
  apiKeyId: string | null;
  requester: EmbeddingRequester;
}

export interface ImportResult {
  imported: number;
  skipped_expired: number;
  memory_ids: string[];
}

/**
 * Imports an export (lib/memory/export-format.ts) into a namespace granted to the principal: the body is
 * read as it arrives and every line validated first (400 naming the first bad line, 403 for a line outside
 * a key's scopes, 413 past IMPORT_LIMITS), nothing written until all are valid. Then all or nothing: a
 * failure midway deletes what the import had written before the error is returned (other requests may see
 * those memories meanwhile, as with a remember batch).
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
  if (!namespace) throw notFound(`Namespace ${namespaceId}`);
  return importLines({ namespace, scopes: {}, apiKeyId: null, requester: { orgId: namespace.orgId } }, body);
}

async function importLines(target: ImportTarget, body: AsyncIterable<Uint8Array>): Promise<ImportResult> {
  // The valid lines wait on disk between the two passes, so an import of any size is never held in memory.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "memgw-import-"));
  try {
    const spool = path.join(dir, "memories.ndjson");
    await validateLines(target, body, spool);
    return await writeLines(target, spool);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Reads and validates every line, writing each valid memory line to `spool`: the first pass. */
async function validateLines(target: ImportTarget, body: AsyncIterable<Uint8Array>, spool: string) {
  const out = fs.createWriteStream(spool, { mode: 0o600 });
  try {
    let header = false;
    for await (const line of ndjsonLines(body, {
      maxBytes: IMPORT_LIMITS.bytes,
      maxLines: IMPORT_LIMITS.lines,
      maxLineChars: IMPORT_LIMITS.lineChars,
    })) {
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch (error) {
        const message = `not valid JSON (${(error as Error).message})`;
        throw new InvalidError(`Line ${line.number} is ${message}.`, [{ field: `line.${line.number}`, message }]);
      }
      if (!header) {
        parseLine(ExportHeaderSchema, value, line.number, "the header: an export starts with its header line");
        header = true;
        continue;
      }
      const memory = parseLine(ExportMemorySchema, value, line.number);
      assertWithinScopes(target.scopes, memory, line.number);
      if (!out.write(JSON.stringify(memory) + "\n")) await once(out, "drain");
    }
    if (!header) throw new InvalidError("The body is empty: send an export, its header line first.");
  } finally {
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

function parseLine<S extends z.ZodType>(schema: S, value: unknown, number: number, expected?: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = issueDetails(parsed.error.issues, `line.${number}`);
  const said = details.map(
    (d) => `${d.field.replace(`line.${number}`, "").replace(/^\./, "") || "line"}: ${d.message}`,
  );
  const prefix = expected ? `Line ${number} must be ${expected}` : `Line ${number} is not a valid memory`;
  throw new InvalidError(`${prefix} (${said.join("; ")}).`, details);
}

/** A key with scopes imports only memories, and versions, carrying every one of its scope pairs. */
function assertWithinScopes(scopes: Scopes, memory: ExportMemory, number: number) {
  const pairs = Object.entries(scopes);
  if (pairs.length === 0) return;
  const within = (candidate: Record<string, string>) => pairs.every(([name, value]) => candidate[name] === value);
  if (within(memory.scopes) && memory.history.every((version) => within(version.scopes))) return;
  const wanted = pairs.map(([name, value]) => `${name}=${value}`).join(", ");
  throw new ForbiddenError(
    `Line ${number}: this API key is limited to scopes ${wanted}; every memory it imports, and every version ` +
      "of one, must carry them. Nothing was imported.",
  );
}

interface PreparedImport {
  line: ExportMemory;
  id: string;
  chunks: string[];
  /** The line's vectors, when the current model made them for exactly these chunks. */
  vectors?: number[][];
}

/** The second pass: reads the spooled lines back and writes them, a few memories per transaction. */
async function writeLines(target: ImportTarget, spool: string): Promise<ImportResult> {
  const provider = embedder();
  const prisma = await db();
  const written: string[] = [];
  let skippedExpired = 0;
  let chunkCount = 0;
  let group: PreparedImport[] = [];
  let groupChunks = 0;
  const flush = async () => {
    if (group.length === 0) return;
    const pending = group;
    group = [];
    groupChunks = 0;
    const texts = pending.flatMap((memory) => (memory.vectors ? [] : memory.chunks));
    const embedded = texts.length > 0 ? await provider.embed(texts, "ingest", target.requester) : [];
    let next = 0;
    for (const memory of pending) memory.vectors ??= memory.chunks.map(() => embedded[next++]);
    await prisma.$transaction((tx) => writeGroup(tx, target, provider.model, pending));
    written.push(...pending.map((memory) => memory.id));
  };
  try {
    const lines = readline.createInterface({ input: fs.createReadStream(spool), crlfDelay: Infinity });
    for await (const text of lines) {
      const line = JSON.parse(text) as ExportMemory;
      if (line.expires_at !== null && Date.parse(line.expires_at) <= Date.now()) {
        skippedExpired++;
        continue;
      }
      const chunks = chunkText(line.content);
      if (groupChunks + chunks.length > CHUNKS_PER_TRANSACTION) await flush();
      group.push({ line, id: newId("mem"), chunks, vectors: reusableVectors(line, chunks, provider.model) });
      groupChunks += chunks.length;
      chunkCount += chunks.length;
    }
    await flush();
  } catch (error) {
    if (written.length > 0) {
      await prisma
        .$transaction((tx) => deleteMemories(tx, target.namespace.orgId, target.namespace.id, written))
        .catch((cleanup) => console.error("[memgw] removing a failed import's memories failed:", cleanup));
    }
    throw error;
  }
  noteSearchGrowth(target.namespace.id, chunkCount);
  return { imported: written.length, skipped_expired: skippedExpired, memory_ids: written };
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

/** Writes a group's memories, their chunks (postings and statistics with them) and their history. */
async function writeGroup(tx: Tx, target: ImportTarget, model: string, memories: PreparedImport[]) {
  const { namespace } = target;
  const rows = memories.map(({ line, id, chunks }) => ({
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
    version: line.version,
    createdAt: new Date(line.created_at),
    updatedAt: new Date(line.updated_at),
  }));
  await tx.memory.createMany({ data: rows });
  // Chunks are dated like their memory (recall's created_at); one statement per run of equal dates.
  let statement: object[] = [];
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
        embedding: vectorLiteral(memory.vectors![position]),
      });
    }
  }
  await writeStatement();
  // The history's order was checked with the line (ExportMemorySchema): the writer finds nothing to refuse.
  for (const memory of memories) {
    await writeImportedHistory(
      tx,
      { orgId: namespace.orgId, namespaceId: namespace.id, memoryId: memory.id },
      memory.line.history,
    );
  }
  await advanceSessions(tx, namespace, memories);
}

/** Appending to an imported conversation continues after its last imported turn. */
async function advanceSessions(tx: Tx, namespace: Namespace, memories: PreparedImport[]) {
  const next = new Map<string, number>();
  for (const { line } of memories) {
    if (line.session_id === null || line.position === null) continue;
    next.set(line.session_id, Math.max(next.get(line.session_id) ?? 0, line.position + 1));
  }
  if (next.size === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO conversation_sessions (namespace_id, session_id, org_id, next_position)
     SELECT $1, s.session_id, $2, s.next_position
     FROM jsonb_to_recordset($3::jsonb) AS s(session_id text, next_position int)
     ON CONFLICT (namespace_id, session_id) DO UPDATE
       SET next_position = GREATEST(conversation_sessions.next_position, EXCLUDED.next_position)`,
    namespace.id,
    namespace.orgId,
    JSON.stringify([...next].map(([session_id, next_position]) => ({ session_id, next_position }))),
  );
}
