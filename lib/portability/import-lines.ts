// The first pass of an import (lib/portability/import.ts): every line read and validated, the valid ones spooled to
// disk as export lines, before anything is written.
import { once } from "node:events";
import fs from "node:fs";
import type { z } from "zod";
import type { Scopes } from "@/lib/auth/scopes";
import { db } from "@/lib/db";
import { setting } from "@/lib/config";
import { ForbiddenError, InvalidError, issueDetails, PayloadTooLargeError } from "@/lib/errors";
import { Prisma, type Namespace } from "@/lib/generated/prisma/client";
import { ndjsonLines } from "@/lib/http/ndjson";
import type { EmbeddingRequester } from "@/lib/memory/embeddings/provider";
import {
  type ExportDocument,
  ExportDocumentSchema,
  ExportHeaderSchema,
  type ExportMemory,
  ExportMemorySchema,
  IMPORT_LIMITS,
  type MemoryLine,
  MemoryLineSchema,
} from "./export-format";
import { type ImportedVersion } from "@/lib/memory/store/history";
import { effectiveScopes } from "@/lib/memory/common/scopes";

export interface ImportTarget {
  namespace: Namespace;
  scopes: Scopes;
  apiKeyId: string | null;
  requester: EmbeddingRequester;
}

/**
 * Reads and validates every line, writing each valid memory line to `spool` as an export's memory line:
 * the first pass. A line from elsewhere (no `type`) becomes one as `remember` would store it now; its turn,
 * if any, has no position yet (the write appends it to its session).
 */
export async function validateLines(target: ImportTarget, body: AsyncIterable<Uint8Array>, spool: Spool) {
  const out = fs.createWriteStream(spool.memories, { mode: 0o600 });
  const documentsOut = fs.createWriteStream(spool.documents, { mode: 0o600 });
  // Each conversation turn's (session, position), with its line: two turns may not share one.
  const turns = new Map<string, number>();
  // The sessions of turns from elsewhere, appended to: with the line that first named each.
  const appended = new Map<string, number>();
  try {
    let first = true;
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
      const type = typeOf(value);
      // An export starts with its header; memories from elsewhere come without one.
      if (type === "header") {
        if (!first) {
          const message = "a header goes first, once";
          throw new InvalidError(`Line ${line.number}: ${message}.`, [{ field: `line.${line.number}.type`, message }]);
        }
        parseLine(ExportHeaderSchema, value, line.number, "the header of an export");
        first = false;
        header = true;
        continue;
      }
      first = false;
      if (type === "document") {
        requireHeader(header, line.number);
        const document = parseLine(ExportDocumentSchema, value, line.number, "a document of an export");
        assertDocumentAllowed(target.scopes, document, line.number);
        if (!documentsOut.write(JSON.stringify(document) + "\n")) await once(documentsOut, "drain");
        continue;
      }
      let memory: ExportMemory;
      if (type === undefined) {
        memory = fromElsewhere(target, parseLine(MemoryLineSchema, value, line.number), line.number);
        if (memory.session_id !== null && !appended.has(memory.session_id)) {
          appended.set(memory.session_id, line.number);
        }
      } else {
        requireHeader(header, line.number);
        memory = parseLine(ExportMemorySchema, value, line.number, undefined, FULL_LINE_HINT);
        assertWithinScopes(target.scopes, memory, line.number);
      }
      if (memory.session_id !== null && memory.position !== null) {
        const turn = JSON.stringify([memory.session_id, memory.position]);
        const earlier = turns.get(turn);
        if (earlier !== undefined) throw duplicateTurn(line.number, memory, `line ${earlier} has it too`);
        turns.set(turn, line.number);
      }
      if (!out.write(JSON.stringify(memory) + "\n")) await once(out, "drain");
    }
    if (first) {
      throw new InvalidError(
        "The body is empty: send an export (its header line first) or memories, one JSON object a line.",
      );
    }
  } finally {
    for (const stream of [out, documentsOut]) {
      await new Promise<void>((resolve, reject) =>
        stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    }
  }
  assertSessionsApart(turns, appended);
  await assertTurnsFree(target.namespace, turns);
}

/** Where the valid lines wait between the two passes: memories, and documents with their originals. */
export interface Spool {
  memories: string;
  documents: string;
}

/** An export's lines are read by the format version its header states: a typed line needs one before it. */
function requireHeader(header: boolean, number: number) {
  if (header) return;
  const message =
    'a line with "type" belongs to an export, whose header line comes first ' +
    '(a memory from elsewhere leaves out "type")';
  throw new InvalidError(`Line ${number}: ${message}.`, [{ field: `line.${number}.type`, message }]);
}

/** A document within the key's scopes, and no larger than a document may be. */
function assertDocumentAllowed(scopes: Scopes, document: ExportDocument, number: number) {
  assertWithinScopes(scopes, { scopes: document.scopes, history: [] }, number);
  const maxBytes = setting("DOCUMENT_MAX_BYTES");
  if (Buffer.byteLength(document.original, "base64") > maxBytes) {
    throw new PayloadTooLargeError(
      `Line ${number}: the document is larger than ${maxBytes} bytes. Nothing was imported.`,
    );
  }
}

/** A line's `type`, when it is an object that has one. */
function typeOf(value: unknown): unknown {
  return typeof value === "object" && value !== null && "type" in value ? (value as { type: unknown }).type : undefined;
}

const FULL_LINE_HINT =
  'A line with "type": "memory" is an export\'s and carries every field; a memory from elsewhere needs ' +
  'only content: leave out "type".';

/**
 * A memory from elsewhere as an export's memory line, stored as `remember` would store it now: the key's
 * scopes added to its own (403 for a contradiction, naming the line), occurred_at now unless given, and
 * no history (its first version is the import's). A turn's position is left for the write to take.
 */
function fromElsewhere(target: ImportTarget, line: MemoryLine, number: number): ExportMemory {
  let scopes: Scopes;
  try {
    scopes = effectiveScopes(target.scopes, line.scopes);
  } catch (error) {
    if (error instanceof ForbiddenError) {
      throw new ForbiddenError(`Line ${number}: ${error.message} Nothing was imported.`);
    }
    throw error;
  }
  const now = new Date().toISOString();
  const expiresAt =
    line.ttl_seconds !== undefined
      ? new Date(Date.now() + line.ttl_seconds * 1000).toISOString()
      : (line.expires_at ?? null);
  return {
    type: "memory",
    id: "",
    content: line.content,
    metadata: line.metadata ?? {},
    scopes,
    identity_id: line.identity_id ?? null,
    session_id: line.session_id ?? null,
    position: null,
    role: line.role ?? null,
    occurred_at: line.occurred_at ?? now,
    created_at: now,
    updated_at: now,
    expires_at: expiresAt,
    version: 1,
    history: [],
    embedding_model: null,
  };
}

/**
 * A session is either replayed from an export (its turns at their exported positions) or appended to by
 * lines from elsewhere, not both in one import: appended turns would take positions an exported turn of
 * the same import is about to claim.
 */
function assertSessionsApart(turns: Map<string, number>, appended: Map<string, number>) {
  if (appended.size === 0) return;
  for (const [turn, number] of turns) {
    const [sessionId] = JSON.parse(turn) as [string, number];
    const other = appended.get(sessionId);
    if (other === undefined) continue;
    const message =
      `session ${JSON.stringify(sessionId)} has turns with positions (line ${number}) and without (line ${other}): ` +
      "send a session's turns one way";
    throw new InvalidError(`Line ${Math.max(number, other)}: ${message}. Nothing was imported.`, [
      { field: `line.${Math.max(number, other)}.session_id`, message },
    ]);
  }
}

function duplicateTurn(number: number, turn: { session_id: string | null; position: number | null }, why: string) {
  const message = `session ${JSON.stringify(turn.session_id)} position ${turn.position} is taken: ${why}`;
  return new InvalidError(`Line ${number}: ${message}. Nothing was imported.`, [
    { field: `line.${number}.position`, message },
  ]);
}

/** No imported turn may take a place a turn of the namespace already has. */
async function assertTurnsFree(namespace: Namespace, turns: Map<string, number>) {
  const all = [...turns];
  for (let i = 0; i < all.length; i += 5_000) {
    const batch = all.slice(i, i + 5_000).map(([turn, number]) => {
      const [sessionId, position] = JSON.parse(turn) as [string, number];
      return { sessionId, position, number };
    });
    const [taken] = await (
      await db()
    ).$queryRaw<{ session_id: string; session_position: number }[]>(
      Prisma.sql`SELECT m.session_id, m.session_position FROM memories m
       JOIN unnest(${batch.map((turn) => turn.sessionId)}::text[], ${batch.map((turn) => turn.position)}::int[])
         AS t(session_id, position)
         ON m.session_id = t.session_id AND m.session_position = t.position
       WHERE m.org_id = ${namespace.orgId} AND m.namespace_id = ${namespace.id}
       LIMIT 1`,
    );
    if (!taken) continue;
    const line = batch.find((turn) => turn.sessionId === taken.session_id && turn.position === taken.session_position);
    throw duplicateTurn(
      line?.number ?? 0,
      { session_id: taken.session_id, position: taken.session_position },
      "the namespace has a turn there already",
    );
  }
}

function parseLine<S extends z.ZodType>(
  schema: S,
  value: unknown,
  number: number,
  expected?: string,
  hint?: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = issueDetails(parsed.error.issues, `line.${number}`);
  // An unknown field's message names it already (`user_id: unknown field; use identity_id`).
  const said = details.map((d) => {
    const field = d.field.replace(`line.${number}`, "").replace(/^\./, "");
    return field ? `${field}: ${d.message}` : d.message;
  });
  const prefix = expected ? `Line ${number} must be ${expected}` : `Line ${number} is not a valid memory`;
  throw new InvalidError(`${prefix} (${said.join("; ")}).${hint ? ` ${hint}` : ""}`, details);
}

/** A key with scopes imports only memories, and versions, carrying every one of its scope pairs. */
function assertWithinScopes(
  scopes: Scopes,
  memory: Pick<ExportMemory, "scopes"> & { history: Pick<ImportedVersion, "scopes">[] },
  number: number,
) {
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
