import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { embedder } from "./embeddings";
import type { MatchJson, RecallBody } from "./schemas";
import { effectiveScopes } from "./scopes";
import { searchChunks, type ScoredChunk } from "./search";

export function matchJson(chunk: ScoredChunk): MatchJson {
  return {
    memory_id: chunk.memoryId,
    chunk_id: chunk.chunkId,
    content: chunk.content,
    score: chunk.score,
    metadata: chunk.metadata,
    scopes: chunk.scopes,
    identity_id: chunk.identityId,
    created_at: chunk.createdAt.toISOString(),
  };
}

export interface Recalled {
  namespaceId: string;
  matches: ScoredChunk[];
}

/** Raw matches for a query in one namespace, within the key's scopes, best first. */
export async function recall(principal: Principal, body: RecallBody, activity: ActivityNote = {}): Promise<Recalled> {
  // The embedding runs on a worker thread: start it now, and look the namespace up meanwhile.
  const queryVector = embedder()
    .embed([body.query], "query")
    .then(([vector]) => vector);
  queryVector.catch(() => undefined); // awaited by the search; a refused request must not leave it unhandled
  const namespace = await resolveTarget(principal, body);
  activity.namespaceId = namespace.id;
  const matches = await searchChunks({
    orgId: principal.orgId,
    namespaceId: namespace.id,
    query: body.query,
    topK: body.top_k,
    minScore: body.min_score,
    scopes: effectiveScopes(principal.scopes, body.scopes),
    statisticsScopes: principal.scopes,
    identityId: body.identity_id,
    metadata: body.metadata,
    queryVector,
  });
  return { namespaceId: namespace.id, matches };
}
