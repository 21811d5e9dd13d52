import type { Match, MemoryGateway } from "@memory-gateway/client";
import { Document } from "@langchain/core/documents";

/** A scalar metadata value: the only kind the API stores (a flat object, at most 64 keys and 8 KiB as JSON). */
export type MetadataValue = string | number | boolean | null;
export type Metadata = Record<string, MetadataValue>;

/** Whose memory a retriever or store reads and writes: a namespace, and within it one identity and scopes. */
export interface MemoryTarget {
  client: MemoryGateway;
  namespaceId: string;
  /** Whom the memories are about: stored memories carry it, searches read only its memories. */
  identityId?: string;
  /** Pairs every stored memory carries and every search requires. */
  scopes?: Record<string, string>;
}

/**
 * The request fields naming a target. Empty scopes are left out: they narrow nothing, and POST /forget refuses
 * `scopes: {}` (a selector must name at least one pair).
 */
export function targetOf({ namespaceId, identityId, scopes }: MemoryTarget) {
  const someScopes = scopes && Object.keys(scopes).length > 0 ? scopes : undefined;
  return { namespace_id: namespaceId, identity_id: identityId, scopes: someScopes };
}

const isScalar = (value: unknown): value is MetadataValue =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * The part of a LangChain document's metadata the API can store: its scalar values. Nested objects (a text
 * splitter's `loc`), arrays and undefined are left out rather than refused, so that documents from loaders and
 * splitters can be added as they come.
 */
export function storableMetadata(metadata: Record<string, unknown>): Metadata {
  return Object.fromEntries(
    Object.entries(metadata).filter((entry): entry is [string, MetadataValue] => isScalar(entry[1])),
  );
}

/**
 * A recalled memory as a LangChain document: its text (the best-matching chunk) and its own metadata, with
 * where it came from beside it: the memory's id (also the document's `id`), its score, identity, conversation,
 * when it happened, and for a passage of a document, which document and where in it.
 */
export function matchToDocument(match: Match): Document {
  return new Document({
    id: match.memory_id,
    pageContent: match.content,
    metadata: {
      ...match.metadata,
      memory_id: match.memory_id,
      score: match.score,
      identity_id: match.identity_id,
      session_id: match.session_id,
      occurred_at: match.occurred_at,
      document: match.document,
    },
  });
}
