// A receipt as the API shows it (GET /erasures, and the audit entries of deletions).
import { z } from "zod";
import type { ErasedNamespace, Erasure } from "./erasure";
import { named } from "@/lib/validation/named";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

const ErasedNamespaceSchema = z.object({
  namespace_id: z.string(),
  name: z.string().describe("the namespace's name when the deletion happened"),
  memories_deleted: z.number().int().describe("every memory deleted there, facts_deleted included"),
  chunks_deleted: z.number().int(),
  facts_deleted: z
    .number()
    .int()
    .describe("facts a chat model derived from the memories deleted, which went with them"),
});

export const ErasureSchema = z.object({
  id: z.string(),
  kind: z
    .enum(["forget", "namespace.delete", "integration.delete"])
    .describe(
      "a forget (one namespace, or every namespace with all_namespaces), a namespace's deletion, or an " +
        "integration's deletion with the memories it brought",
    ),
  namespace_id: z.string().nullable().describe("the request's namespace; null for a forget with all_namespaces"),
  namespaces: z.array(ErasedNamespaceSchema).describe("every namespace memories were deleted from, with counts"),
  selector: z
    .object({
      memory_id_count: z.number().int().optional().describe("how many memory ids were listed (not the ids)"),
      identity_id: z.string().optional(),
      scopes: z.record(z.string(), z.string()).optional().describe("the scopes applied, the key's included"),
      metadata: z.record(z.string(), z.unknown()).optional(),
      all: z.literal(true).optional(),
      all_namespaces: z.literal(true).optional(),
      namespaces_searched: z.number().int().optional(),
      whole_namespace: z.literal(true).optional().describe("the namespace itself was deleted"),
      connection_id: z.string().optional().describe("the integration connection deleted with its memories"),
    })
    .describe("what the request asked to delete; never any memory's content"),
  memories_deleted: z.number().int().describe("every memory deleted, facts_deleted included"),
  chunks_deleted: z.number().int(),
  facts_deleted: z
    .number()
    .int()
    .describe("facts a chat model derived from the memories deleted, which went with them"),
  actor: z
    .object({
      kind: z.enum(["api_key", "user", "integration"]),
      id: z.string().nullable(),
      name: z.string().nullable().describe("the key's name or the user's email at the time"),
    })
    .describe("who asked"),
  created_at: Timestamp,
});
export type ErasureJson = z.infer<typeof ErasureSchema>;

export function erasedNamespaceJson(ns: ErasedNamespace) {
  return {
    namespace_id: ns.namespaceId,
    name: ns.name,
    memories_deleted: ns.memoriesDeleted,
    chunks_deleted: ns.chunksDeleted,
    facts_deleted: ns.factsDeleted ?? 0,
  };
}

export function erasureJson(erasure: Erasure): ErasureJson {
  return {
    id: erasure.id,
    kind: erasure.kind,
    namespace_id: erasure.namespaceId,
    namespaces: erasure.namespaces.map(erasedNamespaceJson),
    selector: erasure.selector,
    memories_deleted: erasure.memoriesDeleted,
    chunks_deleted: erasure.chunksDeleted,
    facts_deleted: erasure.factsDeleted,
    actor: erasure.actor,
    created_at: erasure.createdAt.toISOString(),
  };
}

// The OpenAPI document's names for these schemas: its components, referenced wherever they are used.
named(ErasureSchema, "Erasure");
