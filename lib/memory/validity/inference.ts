import type { Scopes } from "@/lib/auth/scopes";
import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { notExpiredSql, vectorParameter } from "../common/sql";
import { isOneOffEvent, isStatement, saysItChanged, statementSubject } from "./statements";
import { closeMemories, lockSlot, type Closing } from "./supersession";

/**
 * How alike (cosine of the embeddings) a new statement that says something changed and one that holds must be for
 * the new one to be taken as restating its slot; one that does not say so must be nearly the same sentence with
 * another value ("my email is …"). Measured on the knowledge-update set (bench/knowledge-update.ts,
 * docs/benchmarks.md), where a later statement on another slot of the same kind ("my phone is a Pixel" after "my
 * laptop is a ThinkPad") is the trap: it says nothing changed.
 */
export const INFER_MIN_SIMILARITY = 0.55;
export const RESTATEMENT_MIN_SIMILARITY = 0.85;
/** The nearest statements of the identity looked at. */
const CANDIDATES = 5;

/** A memory just written, as inference reads it. */
export interface NewStatement {
  id: string;
  namespaceId: string;
  identityId: string;
  scopes: Scopes;
  content: string;
  validAt: Date;
  /** The embedding of its one chunk. */
  vector: number[];
}

interface Candidate {
  id: string;
  content: string;
  valid_at: Date;
  similarity: number;
}

/**
 * Infers, offline, that a new statement restates the slot of one that holds (both short enough to be one statement,
 * not passages: isStatement): of the identity's current statements
 * in the same namespace with the same scopes (never across them), not conversation turns, document passages or
 * memories with a fact_key, nor events that changed nothing, the most alike one about the same person, if alike
 * enough (less for a statement that says something changed: INFER_MIN_SIMILARITY), is closed by the new one
 * (or closes the new one, if it started to hold later: a late statement is history), marked `inferred` with the
 * similarity. Recall demotes such a memory below the one that replaced it instead of hiding it; PATCH
 * `invalid_at: null` undoes it. Returns what it closed.
 */
export async function inferSupersession(tx: Tx, orgId: string, memory: NewStatement): Promise<Closing[]> {
  if (!isStatement(memory.content)) return [];
  await lockSlot(tx, memory.namespaceId, `identity\u001f${memory.identityId}`);
  const vector = vectorParameter(memory.vector);
  const candidates = await tx.$queryRaw<Candidate[]>(
    Prisma.sql`SELECT m.id, m.content, m.valid_at,
                      (1 - (c.embedding <=> ${vector}::vector))::float8 AS similarity
               FROM memories m
               JOIN memory_chunks c ON c.memory_id = m.id AND c.org_id = ${orgId} AND c.position = 0
               WHERE m.org_id = ${orgId} AND m.namespace_id = ${memory.namespaceId}
                 AND m.identity_id = ${memory.identityId} AND m.scopes = ${JSON.stringify(memory.scopes)}::jsonb
                 AND m.id <> ${memory.id} AND m.invalid_at IS NULL AND m.fact_key IS NULL
                 AND m.session_id IS NULL AND m.document_id IS NULL AND m.chunk_count = 1
                 AND ${Prisma.raw(notExpiredSql("m"))}
               ORDER BY c.embedding <=> ${vector}::vector
               LIMIT ${CANDIDATES}`,
  );
  const subject = statementSubject(memory.content);
  const changed = saysItChanged(memory.content);
  const replaced = candidates.find(
    (candidate) =>
      isStatement(candidate.content) &&
      statementSubject(candidate.content) === subject &&
      // An event that changed nothing does not stop being true.
      (saysItChanged(candidate.content) || !isOneOffEvent(candidate.content)) &&
      candidate.similarity >= (changed ? INFER_MIN_SIMILARITY : RESTATEMENT_MIN_SIMILARITY),
  );
  if (!replaced) return [];
  const supersession = {
    kind: "inferred" as const,
    similarity: Math.round(replaced.similarity * 1000) / 1000,
    basis: "the same identity's most alike statement about the same person",
  };
  const late = replaced.valid_at.getTime() > memory.validAt.getTime();
  const closing: Closing = late
    ? { memoryId: memory.id, invalidAt: replaced.valid_at, supersededBy: replaced.id, supersession }
    : { memoryId: replaced.id, invalidAt: memory.validAt, supersededBy: memory.id, supersession };
  await closeMemories(tx, orgId, [closing]);
  return [closing];
}
