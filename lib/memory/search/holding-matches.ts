import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { CHUNK_ROW_COLUMNS, chunkFilter, type ChunkRow, type SearchRequest } from "./search-legs";
import type { ScoredChunk } from "./search";

/** Which memories recall returns by their validity (lib/memory/validity). */
export interface ValidityView {
  /** What held then (recall's `as_of`, or a past year the question names); now when absent. */
  asOf?: Date;
  /**
   * The time was read from the question, not asked for: every memory that did not hold then is ranked lower,
   * none left out (the question may not mean it).
   */
  implied: boolean;
  /** `include_superseded`: every memory, whatever its validity. */
  includeSuperseded: boolean;
}

/** How far a chain of replacements is followed from a match (a slot changed this many times). */
const CHAIN_HOPS = 20;

/** Whether a memory held at `at` (and, when `asOf` was given, had started to). */
export const holdsAt = (at: Date, strict: boolean) => (m: Pick<ScoredChunk, "validAt" | "invalidAt">) =>
  (!strict || m.validAt.getTime() <= at.getTime()) && (m.invalidAt === null || m.invalidAt.getTime() > at.getTime());

/**
 * Recall's matches as what holds at the view's time. A match that no longer held then gives its place (and its
 * score, added to that one's own) to the memory of its chain of replacements that held, if that one passes the
 * request's filters: a question that finds the old statement is answered with the current one. The match itself
 * is then left out if a fact_key, a `supersedes`, a model or its caller closed it (or it did not hold yet), and
 * ranked just below its replacement if only an offline inference did (an inference can be wrong) or the time was
 * only implied. A past time (`asOf`) follows the chain backwards too: a memory that did not hold yet gives its
 * place to the one it replaced. One statement, only when a match needs it.
 */
export async function holdingMatches(
  request: SearchRequest,
  matches: ScoredChunk[],
  view: ValidityView,
): Promise<ScoredChunk[]> {
  if (view.includeSuperseded) return matches;
  const at = view.asOf ?? new Date();
  const holds = holdsAt(at, view.asOf !== undefined);
  const stale = matches.filter((match) => !holds(match));
  if (stale.length === 0) return matches;
  const chains = await chainsOf(
    request,
    stale.map((match) => match.memoryId),
  );
  // A slot's statements found together are one answer: the one that held, scored by the evidence of them all
  // (a question that finds both the old and the new statement is about that slot), with the others kept after it
  // when they are only demoted.
  const held = new Map<string, { match: ScoredChunk; score: number; relevance: number; after: ScoredChunk[] }>();
  const order: string[] = [];
  const slotOf = (match: ScoredChunk) => {
    let entry = held.get(match.memoryId);
    if (!entry) {
      entry = { match, score: 0, relevance: 0, after: [] };
      held.set(match.memoryId, entry);
      order.push(match.memoryId);
    }
    return entry;
  };
  // A slot is as likely relevant as the likeliest of its statements.
  const add = (slot: { score: number; relevance: number }, match: ScoredChunk) => {
    slot.score += match.score;
    slot.relevance = Math.max(slot.relevance, match.relevance);
  };
  for (const match of matches) {
    if (holds(match)) {
      add(slotOf(match), match);
      continue;
    }
    const replacement = chains
      .get(match.memoryId)
      ?.find((row) => holds({ validAt: row.valid_at, invalidAt: row.invalid_at }));
    const kept = view.implied || match.supersessionKind === "inferred";
    if (!replacement) {
      if (kept) add(slotOf(match), match);
      continue;
    }
    const own = matches.find((m) => m.memoryId === replacement.memory_id);
    const slot = slotOf(own ?? { ...match, ...chunkOf(replacement) });
    add(slot, match);
    if (kept) slot.after.push(match);
  }
  const ranked = order.map((id) => held.get(id)!).sort((a, b) => b.score - a.score);
  const result: ScoredChunk[] = [];
  const placed = new Set<string>();
  for (const { match, score, relevance, after } of ranked) {
    for (const one of [{ ...match, score: Math.min(1, score), relevance }, ...after]) {
      if (placed.has(one.memoryId)) continue;
      placed.add(one.memoryId);
      result.push(one);
    }
  }
  return result;
}

/** A chain's memory as a match: its first chunk's fields (the score and reasons are the match's it replaces). */
function chunkOf(row: ChunkRow): Partial<ScoredChunk> {
  return {
    chunkId: row.id,
    memoryId: row.memory_id,
    content: row.content,
    metadata: row.metadata,
    scopes: row.scopes,
    identityId: row.identity_id,
    sessionId: row.session_id,
    position: row.session_position,
    role: row.role,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    validAt: row.valid_at,
    invalidAt: row.invalid_at,
    supersededBy: row.superseded_by,
    supersessionKind: row.supersession_kind,
  };
}

/**
 * The memories each stale match's chain of replacements leads to, nearest first: those that replaced it (and
 * what replaced them), then those it replaced, each as its first chunk within the request's filters.
 */
async function chainsOf(request: SearchRequest, memoryIds: string[]): Promise<Map<string, ChunkRow[]>> {
  const { orgId } = request;
  const rows = await queryRows<ChunkRow & { origin: string }>(
    Prisma.sql`WITH RECURSIVE later(id, origin, depth) AS (
         SELECT m.superseded_by, m.id, 1 FROM memories m
         WHERE m.org_id = ${orgId} AND m.id = ANY(${memoryIds}::text[]) AND m.superseded_by IS NOT NULL
         UNION ALL
         SELECT m.superseded_by, later.origin, later.depth + 1 FROM later
         JOIN memories m ON m.org_id = ${orgId} AND m.id = later.id
         WHERE m.superseded_by IS NOT NULL AND later.depth < ${CHAIN_HOPS}
       ), earlier(id, origin, depth) AS (
         SELECT m.id, m.superseded_by, 1 FROM memories m
         WHERE m.org_id = ${orgId} AND m.superseded_by = ANY(${memoryIds}::text[])
         UNION ALL
         SELECT m.id, earlier.origin, earlier.depth + 1 FROM earlier
         JOIN memories m ON m.org_id = ${orgId} AND m.superseded_by = earlier.id
         WHERE earlier.depth < ${CHAIN_HOPS}
       ), chain AS (
         SELECT id, origin, depth FROM later UNION ALL SELECT id, origin, ${CHAIN_HOPS} + depth FROM earlier
       )
       SELECT chain.origin, ${CHUNK_ROW_COLUMNS}
       FROM chain JOIN memory_chunks c ON c.org_id = ${orgId} AND c.memory_id = chain.id AND c.position = 0
       WHERE ${chunkFilter(request)}
       ORDER BY chain.origin, chain.depth`,
  );
  const chains = new Map<string, ChunkRow[]>();
  for (const row of rows) chains.set(row.origin, [...(chains.get(row.origin) ?? []), row]);
  return chains;
}

/** "… in 2024", "back in 2019", "during 2023": a past year a question asks about. */
const PAST_YEAR = /\b(?:in|during|back in|as of|by the end of)\s+((?:1[89]|20)\d{2})\b/i;

/**
 * The time a question asks about when it names a past year ("Where did Dana live in 2024?"): the end of that
 * year, as an ISO string; undefined for a question about now.
 */
export function yearAskedAbout(query: string, now = new Date()): string | undefined {
  const year = Number(PAST_YEAR.exec(query)?.[1]);
  if (!Number.isInteger(year) || year >= now.getUTCFullYear()) return undefined;
  return new Date(Date.UTC(year, 11, 31, 23, 59, 59, 999)).toISOString();
}
