// What an erasure receipt is: the proof that a deletion request was served. A receipt says what was asked
// (the selector, never content), how many memories and chunks went from which namespaces, who asked and
// when. Kept in the `erasures` table. This folder sits below lib/namespaces and lib/memory, whose deletions
// write receipts (a namespace's deletion, forgetting an identity); the deletion requests that build on
// lib/memory (forget) are one folder up, in lib/erasures.
import type { Principal } from "@/lib/auth/principal";

export type ErasureKind = "forget" | "namespace.delete" | "integration.delete";

/** One namespace a deletion touched, as it was named when the deletion happened. */
export interface ErasedNamespace {
  namespaceId: string;
  name: string;
  /** All of them, the facts below included. */
  memoriesDeleted: number;
  chunksDeleted: number;
  /** Facts a chat model derived from memories deleted, which went with them (absent on older receipts). */
  factsDeleted?: number;
}

/**
 * What the request asked to delete. Selector values only (identifiers, scope pairs, metadata values the
 * caller filtered by), never a memory's content; memory ids are counted, not listed.
 */
export interface ErasureSelector {
  memory_id_count?: number;
  identity_id?: string;
  scopes?: Record<string, string>;
  metadata?: Record<string, unknown>;
  all?: true;
  all_namespaces?: true;
  /** For all_namespaces: how many namespaces the principal could write, every one of which was searched. */
  namespaces_searched?: number;
  whole_namespace?: true;
  /** An integration's deletion: the connection whose memories went with it. */
  connection_id?: string;
}

export interface ErasureInput {
  kind: ErasureKind;
  /** The request's one namespace; null for a forget across every namespace. */
  namespaceId: string | null;
  namespaces: ErasedNamespace[];
  selector: ErasureSelector;
  /** A receipt written part-way through a deletion of several transactions: erasure.completed comes later. */
  partial?: true;
}

export type ActorKind = "api_key" | "user" | "integration";

export interface ErasureActor {
  kind: ActorKind;
  id: string | null;
  name: string | null;
}

export interface Erasure {
  id: string;
  kind: ErasureKind;
  namespaceId: string | null;
  namespaces: ErasedNamespace[];
  selector: ErasureSelector;
  memoriesDeleted: number;
  chunksDeleted: number;
  factsDeleted: number;
  actor: ErasureActor;
  createdAt: Date;
}

/** Who a principal is, as a receipt names its actor. */
export function actorOfPrincipal(principal: Principal): { kind: ActorKind; id: string } {
  if (principal.kind === "api_key") return { kind: "api_key", id: principal.keyId };
  if (principal.kind === "integration") return { kind: "integration", id: principal.connectionId };
  // Never reached (a document's processing replaces its own passages without a receipt); named as what runs it.
  if (principal.kind === "document") return { kind: "integration", id: principal.documentId };
  if (principal.kind === "inference") return { kind: "integration", id: principal.jobId };
  return { kind: "user", id: principal.userId };
}
