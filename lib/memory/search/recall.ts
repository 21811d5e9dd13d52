import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { documentCitation } from "../common/document-citation";
import { timedStage } from "@/lib/http/server-timing";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { CHUNK_MAX_CHARS } from "../store/chunking";
import { embedQuery } from "../embeddings";
import { entityKey } from "../entities/extract-entities";
import type { EntityRefJson } from "../common/entity-ref";
import { entitiesOfMemories } from "../entities/match-entities";
import { withDescendingRelevance } from "./calibration";
import type { AskBody, ContextTurnJson, MatchJson, RecallBody } from "../common/schemas";
import { effectiveScopes } from "../common/scopes";
import { searchChunks, type ScoredChunk, type SearchRequest } from "./search";
import { holdingMatches, yearAskedAbout } from "./holding-matches";
import { othersLower } from "./about-others";
import { memoryFilter } from "../common/sql";

/** A turn of the match's conversation, next to it: returned beside the match with `context: n`. */
export interface ContextTurn {
  memoryId: string;
  position: number;
  role: string | null;
  /** The turn's text; of a longer one, the CHUNK_MAX_CHARS characters nearest to the match. */
  content: string;
  truncated: boolean;
  occurredAt: Date;
}

export interface RecalledMatch extends ScoredChunk {
  /** The neighbouring turns asked for, in conversation order, the match left out; none for a plain memory. */
  context: ContextTurn[];
  /** The entities the memory mentions, the most mentioned first. */
  entities: EntityRefJson[];
}

export function contextTurnJson(turn: ContextTurn): ContextTurnJson {
  return {
    memory_id: turn.memoryId,
    position: turn.position,
    role: turn.role,
    content: turn.content,
    truncated: turn.truncated,
    occurred_at: turn.occurredAt.toISOString(),
  };
}

export function matchJson(match: RecalledMatch): MatchJson {
  return {
    memory_id: match.memoryId,
    chunk_id: match.chunkId,
    content: match.content,
    score: match.relevance,
    metadata: match.metadata,
    scopes: match.scopes,
    identity_id: match.identityId,
    session_id: match.sessionId,
    position: match.position,
    role: match.role,
    occurred_at: match.occurredAt.toISOString(),
    created_at: match.createdAt.toISOString(),
    valid_at: match.validAt.toISOString(),
    invalid_at: match.invalidAt?.toISOString() ?? null,
    superseded_by: match.supersededBy,
    context: match.context.map(contextTurnJson),
    document: documentCitation(match.metadata),
    match_reasons: match.reasons,
    entities: match.entities,
  };
}

export interface Recalled {
  namespaceId: string;
  matches: RecalledMatch[];
  /** The time the matches hold at: `as_of`, or a past year the question names; now when absent. */
  asOf?: Date;
}

/**
 * Raw matches for a query in one namespace, within the key's scopes, best first; with `context: n`, each
 * match of a conversation turn comes with the n turns before and after it in its session.
 */
export async function recall(
  principal: Principal,
  body: RecallBody | (AskBody & { min_score?: undefined; metadata?: undefined }),
  activity: ActivityNote = {},
): Promise<Recalled> {
  // The embedding runs on a worker thread: start it now, and look the namespace up meanwhile.
  const queryVector = timedStage("embed", () => embedQuery(principal.orgId, body.query));
  queryVector.catch(() => undefined); // awaited by the search; a refused request must not leave it unhandled
  const namespace = await timedStage("namespace", () => resolveTarget(principal, body));
  activity.namespaceId = namespace.id;
  const request: SearchRequest = {
    orgId: principal.orgId,
    namespaceId: namespace.id,
    query: body.query,
    topK: body.top_k,
    minScore: body.min_score,
    scopes: effectiveScopes(principal.scopes, body.scopes),
    statisticsScopes: principal.scopes,
    identityId: body.identity_id,
    metadata: body.metadata,
    sessionId: body.session_id,
    occurredAfter: body.occurred_after,
    occurredBefore: body.occurred_before,
    entities: body.entities?.map((given) => ({ given, key: entityKey(given) })),
    queryVector,
  };
  const asked = body.as_of ?? yearAskedAbout(body.query);
  const asOf = asked === undefined ? undefined : new Date(asked);
  const holding = await holdingMatches(request, await searchChunks(request), {
    asOf,
    implied: body.as_of === undefined && asked !== undefined,
    includeSuperseded: "include_superseded" in body && body.include_superseded === true,
  });
  // After the slots are scored: an identity's statements about others come after its own, whatever their score.
  // Then no score rises down the list, and min_score applies to the scores as published.
  const matches = withDescendingRelevance(othersLower(body.query, body.identity_id, holding)).filter(
    (match) => body.min_score === undefined || match.relevance >= body.min_score,
  );
  const [context, entities] = await timedStage("context", () =>
    Promise.all([
      neighbouringTurns(request, matches, body.context),
      entitiesOfMemories(
        principal.orgId,
        namespace.id,
        matches.map((match) => match.memoryId),
      ),
    ]),
  );
  return {
    namespaceId: namespace.id,
    asOf,
    // Added to this request's own matches: a copy with two more fields (`{ ...match, context }`) leaves V8's fast
    // path for object literals (Node 20), 6 µs a match on the server's main thread (`node bench/object-copies.mjs`).
    matches: matches.map((match) =>
      Object.assign(match, {
        context: context.get(match.memoryId) ?? [],
        entities: entities.get(match.memoryId) ?? [],
      }),
    ),
  };
}

/**
 * The turns within `turns` positions of each match in its session, by the match's memory id, in one
 * statement. A neighbour obeys every rule its match does: the namespace, the key's and the request's
 * scopes, the request's identity, metadata, session and event-time filters, and expiry; so the context
 * never shows a memory that recall with the same request could not return. The entities filter is the
 * exception: it chooses the matches, and the turns around one need not name the same entities.
 */
async function neighbouringTurns(
  request: SearchRequest,
  matches: ScoredChunk[],
  turns: number,
): Promise<Map<string, ContextTurn[]>> {
  const turnsOfSessions = matches.filter((m) => m.sessionId !== null && m.position !== null);
  const byMatch = new Map<string, ContextTurn[]>();
  if (turns === 0 || turnsOfSessions.length === 0) return byMatch;
  const { orgId, namespaceId, scopes, identityId, metadata, sessionId, occurredAfter, occurredBefore } = request;
  const filter = memoryFilter(
    { orgId, namespaceId, scopes, identityId, metadata, sessionId, occurredAfter, occurredBefore },
    "m",
  );
  const matchIds = turnsOfSessions.map((m) => m.memoryId);
  const sessions = turnsOfSessions.map((m) => m.sessionId);
  const positions = turnsOfSessions.map((m) => m.position);
  const longest = CHUNK_MAX_CHARS;
  const rows = await queryRows<{
    match_id: string;
    id: string;
    position: number;
    role: string | null;
    content: string;
    truncated: boolean;
    occurred_at: Date;
  }>(
    // A long turn is cut to the side facing the match: the end of a turn before it, the start of one after.
    Prisma.sql`SELECT t.match_id, m.id, m.session_position AS position, m.role, m.occurred_at,
            CASE WHEN char_length(m.content) <= ${longest}::int THEN m.content
                 WHEN m.session_position < t.position THEN right(m.content, ${longest}::int)
                 ELSE left(m.content, ${longest}::int) END AS content,
            char_length(m.content) > ${longest}::int AS truncated
     FROM unnest(${matchIds}::text[], ${sessions}::text[], ${positions}::int[]) AS t(match_id, session_id, position)
     JOIN memories m ON m.session_id = t.session_id
                    AND m.session_position BETWEEN t.position - ${turns}::int AND t.position + ${turns}::int
                    AND m.id <> t.match_id
     WHERE ${filter}
     ORDER BY t.match_id, m.session_position, m.id`,
  );
  for (const row of rows) {
    const turn: ContextTurn = {
      memoryId: row.id,
      position: row.position,
      role: row.role,
      content: row.content,
      truncated: row.truncated,
      occurredAt: row.occurred_at,
    };
    const list = byMatch.get(row.match_id);
    if (list) list.push(turn);
    else byMatch.set(row.match_id, [turn]);
  }
  return byMatch;
}
