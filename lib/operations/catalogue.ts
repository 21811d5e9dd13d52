// Every operation an API key can run (docs/api.md): the HTTP API's routes and OpenAPI document
// (lib/api/endpoints.ts) and the MCP tools (lib/mcp/server.ts) are built from this table.
import { z } from "zod";
import { CursorPage, Page, PaginationQuery } from "@/lib/http/pagination";
import { ask } from "@/lib/memory/ask";
import { exportNamespace } from "@/lib/memory/export";
import { ExportLineSchema, ExportQuery, ImportLineSchema, ImportResultSchema } from "@/lib/memory/export-format";
import { importNamespace } from "@/lib/memory/import";
import { ListMemoriesQuery, listMemories } from "@/lib/memory/list";
import { EntitySchema } from "@/lib/memory/entities/entity-json";
import { EntityDetailSchema, EntityIdParams, getEntity } from "@/lib/memory/entities/get-entity";
import {
  IdentityEntitiesQuery,
  IdentityEntitiesSchema,
  identityEntities,
  IdentityIdParams,
} from "@/lib/memory/entities/identity-entities";
import { ListEntitiesQuery, listEntities, listEntitiesInput } from "@/lib/memory/entities/list-entities";
import { forgetResultJson } from "@/lib/erasures/forget-result";
import { forgetWithReceipt } from "@/lib/erasures/forget-with-receipt";
import { MemoryVersionSchema, versionJson } from "@/lib/memory/history";
import { getMemory } from "@/lib/memory/get-memory";
import { createDocument } from "@/lib/documents/create-document";
import { deleteDocument } from "@/lib/documents/delete-document";
import { documentContent } from "@/lib/documents/document-content";
import { documentJson } from "@/lib/documents/document-json";
import { documentText } from "@/lib/documents/document-text";
import { getDocument } from "@/lib/documents/get-document";
import { listDocuments } from "@/lib/documents/list-documents";
import { refreshDocument } from "@/lib/documents/refresh-document";
import {
  CreateDocumentBody,
  DeletedDocumentSchema,
  DocumentIdParams,
  DocumentSchema,
  DocumentTextSchema,
  ListDocumentsQuery,
} from "@/lib/documents/schemas";
import { setting } from "@/lib/config";
import { memoryHistory } from "@/lib/memory/get-memory-history";
import { memoryItems, remember } from "@/lib/memory/remember";
import { updateMemory } from "@/lib/memory/update-memory";
import { ForgetBody } from "@/lib/memory/forget-body";
import { matchJson, recall } from "@/lib/memory/recall";
import {
  AskBody,
  AskResultSchema,
  ForgetResultSchema,
  MatchSchema,
  MemoryIdParams,
  MemorySchema,
  memoryJson,
  PatchMemoryBody,
  RecallBody,
  RememberBody,
} from "@/lib/memory/schemas";
import {
  createGrant,
  createNamespace,
  deleteGrant,
  deleteNamespace,
  getNamespace,
  listGrants,
  listNamespaces,
  updateNamespace,
} from "@/lib/namespaces/namespaces";
import { ErasureSchema, erasureJson } from "@/lib/erasures/receipts/erasure-json";
import { listErasures, ListErasuresQuery } from "@/lib/erasures/receipts/list-erasures";
import {
  CreateGrantBody,
  CreateNamespaceBody,
  DeletedSchema,
  GrantIdParams,
  GrantSchema,
  grantJson,
  NamespaceIdParams,
  NamespaceSchema,
  namespaceJson,
  UpdateNamespaceBody,
} from "@/lib/namespaces/schemas";
import { listProviders } from "@/lib/integrations/clients";
import { completeConnection } from "@/lib/integrations/connections/complete-connection";
import { connectionJson } from "@/lib/integrations/connections/connection-json";
import { deleteConnection } from "@/lib/integrations/connections/delete-connection";
import { getConnection } from "@/lib/integrations/connections/get-connection";
import { listConnections } from "@/lib/integrations/connections/list-connections";
import { reconnectConnection } from "@/lib/integrations/connections/reconnect-connection";
import { requestSync } from "@/lib/integrations/connections/request-sync";
import { startConnection } from "@/lib/integrations/connections/start-connection";
import {
  CompleteConnectionBody,
  ConnectionIdParams,
  ConnectionSchema,
  CreateConnectionBody,
  CreatedConnectionSchema,
  DeleteConnectionQuery,
  DeletedConnectionSchema,
  ListConnectionsQuery,
  ProviderSchema,
  ReconnectConnectionBody,
} from "@/lib/integrations/schemas";
import { listEvents } from "@/lib/events/list-events";
import { EventFeedQuery, EventFeedSchema } from "@/lib/events/schemas";
import { createWebhook } from "@/lib/events/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/events/webhooks/delete-webhook";
import { listDeliveries } from "@/lib/events/webhooks/list-deliveries";
import { listWebhooks } from "@/lib/events/webhooks/list-webhooks";
import { redeliver } from "@/lib/events/webhooks/redeliver";
import { rotateWebhookSecret } from "@/lib/events/webhooks/rotate-webhook-secret";
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookBody,
  DeliveryIdParams,
  DeliverySchema,
  ListDeliveriesQuery,
  RedeliveredSchema,
  RotateSecretBody,
  TestResultSchema,
  UpdateWebhookBody,
  WebhookEndpointSchema,
  WebhookIdParams,
  DeletedWebhookSchema,
} from "@/lib/events/webhooks/schemas";
import { testWebhook } from "@/lib/events/webhooks/test-webhook";
import { updateWebhook } from "@/lib/events/webhooks/update-webhook";
import { findEndpoint } from "@/lib/events/webhooks/webhook-access";
import { webhookEndpointJson } from "@/lib/events/webhooks/webhook-json";
import { identifier } from "@/lib/validation/strings";
import { operation } from "./operation";

/** The namespace an MCP endpoint's tools run in, as its path names it: `/mcp/{namespace_id}`. */
export const McpPathParams = z.strictObject({ namespace_id: identifier({ min: 1 }) });

export const operations = {
  listNamespaces: operation({
    permission: "NAMESPACE_READ",
    query: PaginationQuery,
    response: NamespaceSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listNamespaces(principal, query);
      return new Page(items.map(namespaceJson), total, query);
    },
  }),
  createNamespace: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "creating a namespace",
    body: CreateNamespaceBody,
    response: NamespaceSchema,
    successStatus: 201,
    run: async ({ principal, body }) => namespaceJson(await createNamespace(principal, body)),
  }),
  getNamespace: operation({
    permission: "NAMESPACE_READ",
    params: NamespaceIdParams,
    response: NamespaceSchema,
    run: async ({ principal, params }) => namespaceJson(await getNamespace(principal, params.id)),
  }),
  updateNamespace: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "changing a namespace",
    params: NamespaceIdParams,
    body: UpdateNamespaceBody,
    response: NamespaceSchema,
    run: async ({ principal, params, body }) => namespaceJson(await updateNamespace(principal, params.id, body)),
  }),
  deleteNamespace: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "deleting a namespace",
    params: NamespaceIdParams,
    response: DeletedSchema,
    run: ({ principal, params }) => deleteNamespace(principal, params.id),
  }),
  // Export and import stream NDJSON (lib/memory/export-format.ts): a namespace of any size, never held whole.
  exportNamespace: operation({
    permission: "NAMESPACE_READ",
    params: NamespaceIdParams,
    query: ExportQuery,
    response: ExportLineSchema,
    ndjson: { response: true },
    run: ({ principal, params, query }) =>
      exportNamespace(principal, params.id, { includeVectors: query.include_vectors }),
  }),
  importNamespace: operation({
    permission: "NAMESPACE_WRITE",
    params: NamespaceIdParams,
    response: ImportResultSchema,
    ndjson: { request: ImportLineSchema },
    successStatus: 201,
    run: ({ principal, params, bodyStream }) => importNamespace(principal, params.id, bodyStream!),
  }),
  listGrants: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "listing a namespace's grants",
    params: NamespaceIdParams,
    response: z.array(GrantSchema),
    run: async ({ principal, params }) => (await listGrants(principal, params.id)).map(grantJson),
  }),
  createGrant: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "granting access to a namespace",
    params: NamespaceIdParams,
    body: CreateGrantBody,
    response: GrantSchema,
    successStatus: 201,
    run: async ({ principal, params, body }) => grantJson(await createGrant(principal, params.id, body)),
  }),
  deleteGrant: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "removing a grant",
    params: GrantIdParams,
    response: DeletedSchema,
    run: ({ principal, params }) => deleteGrant(principal, params.id, params.grantId),
  }),
  // The memory operations note identity and counts for their activity row.
  remember: operation({
    permission: "NAMESPACE_WRITE",
    body: RememberBody,
    response: z.union([MemorySchema, z.array(MemorySchema)]),
    successStatus: 201,
    activity: "remember",
    async run({ principal, body, activity }) {
      const items = memoryItems(body);
      // One activity row per request: a batch whose items all name the same identity is that identity's.
      const identities = new Set(items.map((item) => item.identity_id));
      activity.identityId = identities.size === 1 ? [...identities][0] : undefined;
      const { memories } = await remember(principal, body, items, activity, {
        sessionId: body.session_id,
        allowDuplicate: body.allow_duplicate,
      });
      activity.details = { memories: memories.length };
      return body.content !== undefined ? memoryJson(memories[0]) : memories.map(memoryJson);
    },
  }),
  recall: operation({
    permission: "NAMESPACE_READ",
    body: RecallBody,
    response: z.array(MatchSchema),
    activity: "recall",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      const { matches } = await recall(principal, body, activity);
      activity.details = { matches: matches.length };
      return matches.map(matchJson);
    },
  }),
  ask: operation({
    permission: "NAMESPACE_READ",
    body: AskBody,
    response: AskResultSchema,
    activity: "ask",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      return ask(principal, body, activity);
    },
  }),
  forget: operation({
    permission: "NAMESPACE_WRITE",
    body: ForgetBody,
    response: ForgetResultSchema,
    activity: "forget",
    async run({ principal, body, activity }) {
      activity.identityId = body.identity_id;
      const forgotten = await forgetWithReceipt(principal, body, activity);
      activity.details = { deleted: forgotten.deleted };
      return forgetResultJson(forgotten);
    },
  }),
  // Erasure receipts are the organization operator's proof that deletion requests were served.
  listErasures: operation({
    permission: "NAMESPACE_MANAGE",
    namespaceWide: "reading erasure receipts",
    query: ListErasuresQuery,
    response: ErasureSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listErasures(principal, query);
      return new Page(items.map(erasureJson), total, query);
    },
  }),
  getMemory: operation({
    permission: "NAMESPACE_READ",
    params: MemoryIdParams,
    response: MemorySchema,
    activity: "get_memory",
    run: async ({ principal, params, activity }) => memoryJson(await getMemory(principal, params.id, activity)),
  }),
  updateMemory: operation({
    permission: "NAMESPACE_WRITE",
    params: MemoryIdParams,
    body: PatchMemoryBody,
    response: MemorySchema,
    activity: "update_memory",
    async run({ principal, params, body, activity }) {
      const memory = await updateMemory(principal, params.id, body, activity);
      activity.details = { version: memory.version };
      return memoryJson(memory);
    },
  }),
  memoryHistory: operation({
    permission: "NAMESPACE_READ",
    params: MemoryIdParams,
    query: PaginationQuery,
    response: MemoryVersionSchema,
    paginated: true,
    activity: "memory_history",
    async run({ principal, params, query, activity }) {
      const { versions, total } = await memoryHistory(principal, params.id, query, activity);
      return new Page(versions.map(versionJson), total, query);
    },
  }),
  listMemories: operation({
    permission: "NAMESPACE_READ",
    query: ListMemoriesQuery,
    response: MemorySchema,
    paginated: "cursor",
    activity: "list_memories",
    async run({ principal, query, activity }) {
      const page = await listMemories(principal, query, activity);
      activity.details = { memories: page.items.length };
      return new CursorPage(page.items.map(memoryJson), page.total, page);
    },
  }),
  // Documents (files and web pages) whose passages become memories with their page and section.
  addDocument: operation({
    permission: "NAMESPACE_WRITE",
    body: CreateDocumentBody,
    response: DocumentSchema,
    successStatus: 202,
    upload: { maxFileBytes: () => setting("DOCUMENT_MAX_BYTES"), jsonFields: ["scopes", "metadata"] },
    activity: "add_document",
    async run({ principal, body, activity }) {
      const document = await createDocument(principal, body, activity);
      activity.details = { document_id: document.id };
      return documentJson(document);
    },
  }),
  listDocuments: operation({
    permission: "NAMESPACE_READ",
    query: ListDocumentsQuery,
    response: DocumentSchema,
    paginated: true,
    activity: "list_documents",
    async run({ principal, query, activity }) {
      const page = await listDocuments(principal, query, activity);
      return new Page(page.items.map(documentJson), page.total, page.query);
    },
  }),
  getDocument: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: DocumentSchema,
    activity: "get_document",
    run: async ({ principal, params, activity }) => documentJson(await getDocument(principal, params.id, activity)),
  }),
  documentText: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: DocumentTextSchema,
    activity: "get_document",
    run: ({ principal, params, activity }) => documentText(principal, params.id, activity),
  }),
  documentContent: operation({
    permission: "NAMESPACE_READ",
    params: DocumentIdParams,
    response: z.unknown(),
    download: true,
    activity: "document_content",
    run: ({ principal, params, activity }) => documentContent(principal, params.id, activity),
  }),
  refreshDocument: operation({
    permission: "NAMESPACE_WRITE",
    params: DocumentIdParams,
    response: DocumentSchema,
    successStatus: 202,
    activity: "refresh_document",
    run: async ({ principal, params, activity }) => documentJson(await refreshDocument(principal, params.id, activity)),
  }),
  deleteDocument: operation({
    permission: "NAMESPACE_WRITE",
    params: DocumentIdParams,
    response: DeletedDocumentSchema,
    activity: "delete_document",
    run: ({ principal, params, activity }) => deleteDocument(principal, params.id, activity),
  }),
  // Entities (people, places, things, dates) the memories name, counted over what the caller may see.
  listEntities: operation({
    permission: "NAMESPACE_READ",
    query: ListEntitiesQuery,
    response: EntitySchema,
    paginated: "cursor",
    activity: "list_entities",
    async run({ principal, query, activity }) {
      const page = await listEntities(principal, listEntitiesInput(query), activity);
      activity.details = { entities: page.items.length };
      return new CursorPage(page.items, page.total, page);
    },
  }),
  getEntity: operation({
    permission: "NAMESPACE_READ",
    params: EntityIdParams,
    response: EntityDetailSchema,
    activity: "get_entity",
    run: ({ principal, params, activity }) => getEntity(principal, params.id, activity),
  }),
  identityEntities: operation({
    permission: "NAMESPACE_READ",
    params: IdentityIdParams,
    query: IdentityEntitiesQuery,
    response: IdentityEntitiesSchema,
    activity: "identity_entities",
    run: ({ principal, params, query, activity }) =>
      identityEntities(
        principal,
        { identityId: params.id, namespaceId: query.namespace_id, limit: query.limit },
        activity,
      ),
  }),
  // Integrations bring a provider's documents into a namespace without scopes: a key with scopes may not.
  listIntegrationProviders: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    response: z.array(ProviderSchema),
    run: async ({ principal }) => listProviders(principal.orgId),
  }),
  createIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    body: CreateConnectionBody,
    response: CreatedConnectionSchema,
    successStatus: 201,
    async run({ principal, body }) {
      const { connection, authorizationUrl } = await startConnection(principal, body);
      return { connection: connectionJson(connection), authorization_url: authorizationUrl };
    },
  }),
  completeIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    params: ConnectionIdParams,
    body: CompleteConnectionBody,
    response: ConnectionSchema,
    run: async ({ principal, params, body }) => connectionJson(await completeConnection(principal, params.id, body)),
  }),
  reconnectIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "connecting an integration",
    params: ConnectionIdParams,
    body: ReconnectConnectionBody,
    response: CreatedConnectionSchema,
    async run({ principal, params, body }) {
      const { connection, authorizationUrl } = await reconnectConnection(principal, params.id, body);
      return { connection: connectionJson(connection), authorization_url: authorizationUrl };
    },
  }),
  listIntegrationConnections: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    query: ListConnectionsQuery,
    response: ConnectionSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listConnections(principal, query);
      return new Page(items.map(connectionJson), total, query);
    },
  }),
  getIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "managing integrations",
    params: ConnectionIdParams,
    response: ConnectionSchema,
    run: async ({ principal, params }) => connectionJson(await getConnection(principal, params.id)),
  }),
  syncIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "syncing an integration",
    params: ConnectionIdParams,
    response: ConnectionSchema,
    run: async ({ principal, params }) => connectionJson(await requestSync(principal, params.id)),
  }),
  deleteIntegrationConnection: operation({
    permission: "INTEGRATION_MANAGE",
    namespaceWide: "deleting an integration",
    params: ConnectionIdParams,
    query: DeleteConnectionQuery,
    response: DeletedConnectionSchema,
    run: ({ principal, params, query }) => deleteConnection(principal, params.id, query.keep_memories),
  }),
  // Events: every change, in order, for applications to follow (the feed) or to receive (webhooks).
  listEvents: operation({
    permission: "NAMESPACE_READ",
    query: EventFeedQuery,
    response: EventFeedSchema,
    run: ({ principal, query }) => listEvents(principal, query),
  }),
  listWebhooks: operation({
    permission: "WEBHOOK_MANAGE",
    query: PaginationQuery,
    response: WebhookEndpointSchema,
    paginated: true,
    async run({ principal, query }) {
      const { items, total } = await listWebhooks(principal, query);
      return new Page(items.map(webhookEndpointJson), total, query);
    },
  }),
  createWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    body: CreateWebhookBody,
    response: CreatedWebhookEndpointSchema,
    successStatus: 201,
    async run({ principal, body }) {
      const { endpoint, secret } = await createWebhook(principal, body);
      return { endpoint: webhookEndpointJson(endpoint), secret };
    },
  }),
  getWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: WebhookEndpointSchema,
    run: async ({ principal, params }) => webhookEndpointJson(await findEndpoint(principal, params.id)),
  }),
  updateWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    body: UpdateWebhookBody,
    response: WebhookEndpointSchema,
    run: async ({ principal, params, body }) => webhookEndpointJson(await updateWebhook(principal, params.id, body)),
  }),
  deleteWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: DeletedWebhookSchema,
    run: ({ principal, params }) => deleteWebhook(principal, params.id),
  }),
  rotateWebhookSecret: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    body: RotateSecretBody,
    response: CreatedWebhookEndpointSchema,
    async run({ principal, params, body }) {
      const { endpoint, secret } = await rotateWebhookSecret(principal, params.id, body.overlap_hours);
      return { endpoint: webhookEndpointJson(endpoint), secret };
    },
  }),
  testWebhook: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    response: TestResultSchema,
    run: ({ principal, params }) => testWebhook(principal, params.id),
  }),
  listWebhookDeliveries: operation({
    permission: "WEBHOOK_MANAGE",
    params: WebhookIdParams,
    query: ListDeliveriesQuery,
    response: DeliverySchema,
    paginated: true,
    async run({ principal, params, query }) {
      const { items, total } = await listDeliveries(principal, params.id, query);
      return new Page(items, total, query);
    },
  }),
  redeliverWebhookDelivery: operation({
    permission: "WEBHOOK_MANAGE",
    params: DeliveryIdParams,
    response: RedeliveredSchema,
    successStatus: 202,
    run: ({ principal, params }) => redeliver(principal, params.id, params.deliveryId),
  }),
};
