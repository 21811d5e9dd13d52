import { operations } from "@/lib/operations/catalogue";
import { endpoint } from "./endpoint";

/**
 * Every operation of the catalogue (lib/operations) on its HTTP method and path (docs/api.md). Routes
 * under app/api/v1 and /openapi.json are built from this table.
 */
export const endpoints = {
  listNamespaces: endpoint(operations.listNamespaces, {
    method: "GET",
    path: "/namespaces",
    tag: "Namespaces",
    summary: "List the namespaces granted to the key",
  }),
  createNamespace: endpoint(operations.createNamespace, {
    method: "POST",
    path: "/namespaces",
    tag: "Namespaces",
    summary: "Create a namespace; the creating key is granted access to it",
    errors: [409],
    idempotent: true,
  }),
  getNamespace: endpoint(operations.getNamespace, {
    method: "GET",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Get a namespace by id",
    errors: [404],
  }),
  updateNamespace: endpoint(operations.updateNamespace, {
    method: "PATCH",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Change a namespace's name, description or external_reference_id",
    errors: [404, 409],
  }),
  deleteNamespace: endpoint(operations.deleteNamespace, {
    method: "DELETE",
    path: "/namespaces/{id}",
    tag: "Namespaces",
    summary: "Delete a namespace with everything in it and every grant to it",
    errors: [404],
  }),
  exportNamespace: endpoint(operations.exportNamespace, {
    method: "GET",
    path: "/namespaces/{id}/export",
    tag: "Namespaces",
    summary:
      "Stream every memory of a namespace as NDJSON (a header line, then one line per memory with its history " +
      "and, with include_vectors=true, its vectors); a key with scopes exports only memories within them",
    errors: [404],
  }),
  importNamespace: endpoint(operations.importNamespace, {
    method: "POST",
    path: "/namespaces/{id}/import",
    tag: "Namespaces",
    summary:
      "Import an export (NDJSON body): every line is validated first, then all memories are written or none; " +
      "new ids, everything else kept; vectors reused when made by the current embedding model",
    errors: [404, 502, 503],
  }),
  listGrants: endpoint(operations.listGrants, {
    method: "GET",
    path: "/namespaces/{id}/grants",
    tag: "Grants",
    summary: "List the API keys and users granted access to a namespace",
    errors: [404],
  }),
  createGrant: endpoint(operations.createGrant, {
    method: "POST",
    path: "/namespaces/{id}/grants",
    tag: "Grants",
    summary: "Grant an API key or a user of the same organization access to a namespace",
    errors: [404, 409],
  }),
  deleteGrant: endpoint(operations.deleteGrant, {
    method: "DELETE",
    path: "/namespaces/{id}/grants/{grantId}",
    tag: "Grants",
    summary: "Remove a grant",
    errors: [404],
  }),
  remember: endpoint(operations.remember, {
    method: "POST",
    path: "/remember",
    tag: "Memory",
    summary: "Store a memory (`content`) or a batch (`memories`, 1 to 100); it can be recalled as soon as this returns",
    errors: [404, 502, 503],
    idempotent: true,
  }),
  addDocument: endpoint(operations.addDocument, {
    method: "POST",
    path: "/documents",
    tag: "Documents",
    summary:
      "Add a document (a multipart `file`, a `url` or inline `content`): 202 with it queued; its passages become " +
      "memories with their page and section once it is `ready`",
    errors: [404, 413, 415],
    idempotent: true,
  }),
  listDocuments: endpoint(operations.listDocuments, {
    method: "GET",
    path: "/documents",
    tag: "Documents",
    summary: "List a namespace's documents, newest first",
    errors: [404],
  }),
  getDocument: endpoint(operations.getDocument, {
    method: "GET",
    path: "/documents/{id}",
    tag: "Documents",
    summary: "Get a document: its status, pages, passages and error",
    errors: [404],
  }),
  documentText: endpoint(operations.documentText, {
    method: "GET",
    path: "/documents/{id}/text",
    tag: "Documents",
    summary:
      "The text extracted from a document, by page and heading; 409 while it has none yet (queued, processing, failed)",
    errors: [404, 409],
  }),
  documentContent: endpoint(operations.documentContent, {
    method: "GET",
    path: "/documents/{id}/content",
    tag: "Documents",
    summary: "The document's original bytes, as a download",
    errors: [404, 409],
  }),
  refreshDocument: endpoint(operations.refreshDocument, {
    method: "POST",
    path: "/documents/{id}/refresh",
    tag: "Documents",
    summary: "Fetch a URL's document again and replace its passages",
    errors: [404, 409],
  }),
  deleteDocument: endpoint(operations.deleteDocument, {
    method: "DELETE",
    path: "/documents/{id}",
    tag: "Documents",
    summary: "Delete a document with its original and the memories of its passages",
    errors: [404],
  }),
  recall: endpoint(operations.recall, {
    method: "POST",
    path: "/recall",
    tag: "Memory",
    summary:
      "Raw matches for a query, best first: hybrid BM25 + semantic search, filtered by scopes, identity and metadata",
    errors: [404, 502, 503],
  }),
  ask: endpoint(operations.ask, {
    method: "POST",
    path: "/ask",
    tag: "Memory",
    summary:
      "An answer to a question from the namespace's memories, citing them as [n] (`sources[].index`): " +
      "written by the configured chat model, or by the built-in extractive answerer offline",
    errors: [404, 502, 503],
  }),
  forget: endpoint(operations.forget, {
    method: "POST",
    path: "/forget",
    tag: "Memory",
    summary:
      "Delete the memories matching every selector given (memory_ids, identity_id, scopes, metadata) " +
      "or all: true; or an identity's memories in every namespace the key may write (all_namespaces: true). " +
      "Irreversible; records an erasure receipt (erasure_id)",
    errors: [404],
    idempotent: true,
  }),
  listErasures: endpoint(operations.listErasures, {
    method: "GET",
    path: "/erasures",
    tag: "Erasures",
    summary:
      "Erasure receipts, newest first: every forget and namespace deletion, with its selector, how many " +
      "memories and chunks it deleted from which namespaces, who asked and when (never content)",
  }),
  getMemory: endpoint(operations.getMemory, {
    method: "GET",
    path: "/memories/{id}",
    tag: "Memory",
    summary: "One memory, in a namespace granted to the key and within its scopes",
    errors: [404],
  }),
  updateMemory: endpoint(operations.updateMemory, {
    method: "PATCH",
    path: "/memories/{id}",
    tag: "Memory",
    summary:
      "Change a memory's content, metadata, scopes, identity, event time or expiry; new content is embedded " +
      "again; the version it replaces is kept (GET /memories/{id}/history)",
    errors: [404, 409, 502, 503],
    idempotent: true,
  }),
  memoryHistory: endpoint(operations.memoryHistory, {
    method: "GET",
    path: "/memories/{id}/history",
    tag: "Memory",
    summary:
      "A memory's versions, newest first, the current one included: what each changed, who wrote it and when " +
      "(within the key's scopes)",
    errors: [404],
  }),
  listMemories: endpoint(operations.listMemories, {
    method: "GET",
    path: "/memories",
    tag: "Memory",
    summary:
      "A namespace's memories, newest first, a page at a time (follow pagination.nextCursor), " +
      "filtered by identity, scope pairs and metadata values, within the key's scopes",
    errors: [404],
  }),
  listEntities: endpoint(operations.listEntities, {
    method: "GET",
    path: "/entities",
    tag: "Entities",
    summary:
      "The people, organizations, places, works, events and dates a namespace's memories name, the most " +
      "mentioned first, a page at a time (follow pagination.nextCursor), filtered by kind and by a part of " +
      "the name or an alias; counts over the memories within the key's scopes (an entity only other memories " +
      "name is not listed)",
    errors: [404],
  }),
  getEntity: endpoint(operations.getEntity, {
    method: "GET",
    path: "/entities/{id}",
    tag: "Entities",
    summary:
      "One entity: its aliases, how many memories mention it and how often, its first and last mention " +
      "(event time), and the entities mentioned with it, within the key's scopes",
    errors: [404],
  }),
  identityEntities: endpoint(operations.identityEntities, {
    method: "GET",
    path: "/identities/{id}/entities",
    tag: "Entities",
    summary:
      "What an identity's memories are about: the entities they mention, by how many of them mention each, " +
      "in one namespace or every one the key may use, within the key's scopes",
    errors: [404],
  }),
  listIntegrationProviders: endpoint(operations.listIntegrationProviders, {
    method: "GET",
    path: "/integrations/providers",
    tag: "Integrations",
    summary: "Every provider a namespace can be connected to, and whether this organization can connect it",
  }),
  createIntegrationConnection: endpoint(operations.createIntegrationConnection, {
    method: "POST",
    path: "/integrations/connections",
    tag: "Integrations",
    summary:
      "Start connecting a namespace to a provider: a pending connection and the provider's consent page " +
      "(OAuth 2.0 authorization code, PKCE where supported; the state is single-use and valid 10 minutes)",
    errors: [404, 409],
  }),
  completeIntegrationConnection: endpoint(operations.completeIntegrationConnection, {
    method: "POST",
    path: "/integrations/connections/{id}/complete",
    tag: "Integrations",
    summary: "Finish connecting with the code and state the provider sent back; queues the first sync",
    errors: [404, 409, 502],
  }),
  reconnectIntegrationConnection: endpoint(operations.reconnectIntegrationConnection, {
    method: "POST",
    path: "/integrations/connections/{id}/reconnect",
    tag: "Integrations",
    summary:
      "Authorize an existing connection again (its access was refused or revoked): a new consent page URL " +
      "and state; completing it keeps the connection's memories and syncs what changed",
    errors: [404, 409],
  }),
  listIntegrationConnections: endpoint(operations.listIntegrationConnections, {
    method: "GET",
    path: "/integrations/connections",
    tag: "Integrations",
    summary: "The connections of the namespaces the key may use, newest first",
  }),
  getIntegrationConnection: endpoint(operations.getIntegrationConnection, {
    method: "GET",
    path: "/integrations/connections/{id}",
    tag: "Integrations",
    summary: "One connection: status, last sync, documents synced, last error",
    errors: [404],
  }),
  syncIntegrationConnection: endpoint(operations.syncIntegrationConnection, {
    method: "POST",
    path: "/integrations/connections/{id}/sync",
    tag: "Integrations",
    summary: "Queue a sync now (409 while one is queued or running)",
    errors: [404, 409],
  }),
  deleteIntegrationConnection: endpoint(operations.deleteIntegrationConnection, {
    method: "DELETE",
    path: "/integrations/connections/{id}",
    tag: "Integrations",
    summary:
      "Revoke the token at the provider, delete the connection and, unless keep_memories=true, " +
      "every memory it brought",
    errors: [404],
  }),
  listEvents: endpoint(operations.listEvents, {
    method: "GET",
    path: "/events",
    tag: "Events",
    summary:
      "The changes to the memory the key may read, oldest first, after a cursor: poll with next_cursor to follow " +
      "them (kept EVENT_RETENTION_DAYS, 30 by default)",
    errors: [404],
  }),
  listWebhooks: endpoint(operations.listWebhooks, {
    method: "GET",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "The organization's webhook endpoints (a key sees those it made)",
  }),
  createWebhook: endpoint(operations.createWebhook, {
    method: "POST",
    path: "/webhooks",
    tag: "Webhooks",
    summary: "Add an endpoint that receives events, signed the Standard Webhooks way; its secret is returned this once",
    errors: [404],
  }),
  getWebhook: endpoint(operations.getWebhook, {
    method: "GET",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "One endpoint: its filters, whether it is enabled and why not",
    errors: [404],
  }),
  updateWebhook: endpoint(operations.updateWebhook, {
    method: "PATCH",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "Change an endpoint; enabling a disabled one resumes its deliveries where they stopped",
    errors: [404],
  }),
  deleteWebhook: endpoint(operations.deleteWebhook, {
    method: "DELETE",
    path: "/webhooks/{id}",
    tag: "Webhooks",
    summary: "Delete an endpoint with its delivery log",
    errors: [404],
  }),
  rotateWebhookSecret: endpoint(operations.rotateWebhookSecret, {
    method: "POST",
    path: "/webhooks/{id}/rotate-secret",
    tag: "Webhooks",
    summary:
      "A new signing secret, returned this once; the old one keeps signing beside it for overlap_hours (24 by default)",
    errors: [404],
  }),
  testWebhook: endpoint(operations.testWebhook, {
    method: "POST",
    path: "/webhooks/{id}/test",
    tag: "Webhooks",
    summary: "Send a signed webhook.test message now and say how the endpoint answered",
    errors: [404],
  }),
  listWebhookDeliveries: endpoint(operations.listWebhookDeliveries, {
    method: "GET",
    path: "/webhooks/{id}/deliveries",
    tag: "Webhooks",
    summary: "An endpoint's delivery log, newest first: status, answer, latency, attempts and payload",
    errors: [404],
  }),
  redeliverWebhookDelivery: endpoint(operations.redeliverWebhookDelivery, {
    method: "POST",
    path: "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
    tag: "Webhooks",
    summary: "Send a delivery again, now, with the same webhook-id",
    errors: [404],
  }),
} satisfies Record<keyof typeof operations, unknown>;
