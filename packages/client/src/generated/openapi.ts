// Generated from the OpenAPI document served at /api/v1/openapi.json by scripts/generate-client-types.ts.
// Do not edit: run `npm run generate:client-types`.
export type paths = {
  "/health": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Health
     * @description Readiness: 200 once the database is open and migrated; says whether the embedding model is loaded.
     */
    get: operations["health"];
    /** Not allowed: PUT /health answers 405 */
    put: operations["putHealthNotAllowed"];
    /** Not allowed: POST /health answers 405 */
    post: operations["postHealthNotAllowed"];
    /** Not allowed: DELETE /health answers 405 */
    delete: operations["deleteHealthNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /health answers 405 */
    patch: operations["patchHealthNotAllowed"];
    trace?: never;
  };
  "/openapi.json": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * OpenAPI document
     * @description This document: OpenAPI 3.1, generated from the schemas the API validates with.
     */
    get: operations["openApiDocument"];
    /** Not allowed: PUT /openapi.json answers 405 */
    put: operations["putOpenapiJsonNotAllowed"];
    /** Not allowed: POST /openapi.json answers 405 */
    post: operations["postOpenapiJsonNotAllowed"];
    /** Not allowed: DELETE /openapi.json answers 405 */
    delete: operations["deleteOpenapiJsonNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /openapi.json answers 405 */
    patch: operations["patchOpenapiJsonNotAllowed"];
    trace?: never;
  };
  "/integrations/callback": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Integration callback
     * @description Where providers send the browser back: completes the connection its state names, in the browser that started it (the flow cookie set by the console, or a signed-in member who manages integrations), then redirects to the organization's integrations page.
     */
    get: operations["integrationCallback"];
    /** Not allowed: PUT /integrations/callback answers 405 */
    put: operations["putIntegrationsCallbackNotAllowed"];
    /** Not allowed: POST /integrations/callback answers 405 */
    post: operations["postIntegrationsCallbackNotAllowed"];
    /** Not allowed: DELETE /integrations/callback answers 405 */
    delete: operations["deleteIntegrationsCallbackNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/callback answers 405 */
    patch: operations["patchIntegrationsCallbackNotAllowed"];
    trace?: never;
  };
  "/namespaces": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List namespaces
     * @description List the namespaces granted to the key. Requires the NAMESPACE_READ permission.
     */
    get: operations["listNamespaces"];
    /** Not allowed: PUT /namespaces answers 405 */
    put: operations["putNamespacesNotAllowed"];
    /**
     * Create namespace
     * @description Create a namespace; the creating key is granted access to it. Requires the NAMESPACE_MANAGE permission.
     */
    post: operations["createNamespace"];
    /** Not allowed: DELETE /namespaces answers 405 */
    delete: operations["deleteNamespacesNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /namespaces answers 405 */
    patch: operations["patchNamespacesNotAllowed"];
    trace?: never;
  };
  "/namespaces/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get namespace
     * @description Get a namespace by id. Requires the NAMESPACE_READ permission.
     */
    get: operations["getNamespace"];
    /** Not allowed: PUT /namespaces/{id} answers 405 */
    put: operations["putNamespacesIdNotAllowed"];
    /** Not allowed: POST /namespaces/{id} answers 405 */
    post: operations["postNamespacesIdNotAllowed"];
    /**
     * Delete namespace
     * @description Delete a namespace with everything in it and every grant to it. Requires the NAMESPACE_MANAGE permission.
     */
    delete: operations["deleteNamespace"];
    options?: never;
    head?: never;
    /**
     * Update namespace
     * @description Change a namespace's name, description or external_reference_id. Requires the NAMESPACE_MANAGE permission.
     */
    patch: operations["updateNamespace"];
    trace?: never;
  };
  "/namespaces/{id}/export": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Export namespace
     * @description Stream every memory of a namespace as NDJSON (a header line, then one line per memory with its history and, with include_vectors=true, its vectors); a key with scopes exports only memories within them. Requires the NAMESPACE_READ permission.
     */
    get: operations["exportNamespace"];
    /** Not allowed: PUT /namespaces/{id}/export answers 405 */
    put: operations["putNamespacesIdExportNotAllowed"];
    /** Not allowed: POST /namespaces/{id}/export answers 405 */
    post: operations["postNamespacesIdExportNotAllowed"];
    /** Not allowed: DELETE /namespaces/{id}/export answers 405 */
    delete: operations["deleteNamespacesIdExportNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /namespaces/{id}/export answers 405 */
    patch: operations["patchNamespacesIdExportNotAllowed"];
    trace?: never;
  };
  "/namespaces/{id}/import": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /namespaces/{id}/import answers 405 */
    get: operations["getNamespacesIdImportNotAllowed"];
    /** Not allowed: PUT /namespaces/{id}/import answers 405 */
    put: operations["putNamespacesIdImportNotAllowed"];
    /**
     * Import namespace
     * @description Import an export (NDJSON body): every line is validated first, then all memories are written or none; new ids, everything else kept; vectors reused when made by the current embedding model. Requires the NAMESPACE_WRITE permission.
     */
    post: operations["importNamespace"];
    /** Not allowed: DELETE /namespaces/{id}/import answers 405 */
    delete: operations["deleteNamespacesIdImportNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /namespaces/{id}/import answers 405 */
    patch: operations["patchNamespacesIdImportNotAllowed"];
    trace?: never;
  };
  "/namespaces/{id}/grants": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List grants
     * @description List the API keys and users granted access to a namespace. Requires the NAMESPACE_MANAGE permission.
     */
    get: operations["listGrants"];
    /** Not allowed: PUT /namespaces/{id}/grants answers 405 */
    put: operations["putNamespacesIdGrantsNotAllowed"];
    /**
     * Create grant
     * @description Grant an API key or a user of the same organization access to a namespace. Requires the NAMESPACE_MANAGE permission.
     */
    post: operations["createGrant"];
    /** Not allowed: DELETE /namespaces/{id}/grants answers 405 */
    delete: operations["deleteNamespacesIdGrantsNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /namespaces/{id}/grants answers 405 */
    patch: operations["patchNamespacesIdGrantsNotAllowed"];
    trace?: never;
  };
  "/namespaces/{id}/grants/{grantId}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /namespaces/{id}/grants/{grantId} answers 405 */
    get: operations["getNamespacesIdGrantsGrantIdNotAllowed"];
    /** Not allowed: PUT /namespaces/{id}/grants/{grantId} answers 405 */
    put: operations["putNamespacesIdGrantsGrantIdNotAllowed"];
    /** Not allowed: POST /namespaces/{id}/grants/{grantId} answers 405 */
    post: operations["postNamespacesIdGrantsGrantIdNotAllowed"];
    /**
     * Delete grant
     * @description Remove a grant. Requires the NAMESPACE_MANAGE permission.
     */
    delete: operations["deleteGrant"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /namespaces/{id}/grants/{grantId} answers 405 */
    patch: operations["patchNamespacesIdGrantsGrantIdNotAllowed"];
    trace?: never;
  };
  "/remember": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /remember answers 405 */
    get: operations["getRememberNotAllowed"];
    /** Not allowed: PUT /remember answers 405 */
    put: operations["putRememberNotAllowed"];
    /**
     * Remember
     * @description Store a memory (`content`) or a batch (`memories`, 1 to 100); it can be recalled as soon as this returns. Requires the NAMESPACE_WRITE permission.
     */
    post: operations["remember"];
    /** Not allowed: DELETE /remember answers 405 */
    delete: operations["deleteRememberNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /remember answers 405 */
    patch: operations["patchRememberNotAllowed"];
    trace?: never;
  };
  "/recall": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /recall answers 405 */
    get: operations["getRecallNotAllowed"];
    /** Not allowed: PUT /recall answers 405 */
    put: operations["putRecallNotAllowed"];
    /**
     * Recall
     * @description Raw matches for a query, best first: hybrid BM25 + semantic search, filtered by scopes, identity and metadata. Requires the NAMESPACE_READ permission.
     */
    post: operations["recall"];
    /** Not allowed: DELETE /recall answers 405 */
    delete: operations["deleteRecallNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /recall answers 405 */
    patch: operations["patchRecallNotAllowed"];
    trace?: never;
  };
  "/ask": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /ask answers 405 */
    get: operations["getAskNotAllowed"];
    /** Not allowed: PUT /ask answers 405 */
    put: operations["putAskNotAllowed"];
    /**
     * Ask
     * @description An answer to a question from the namespace's memories, citing them as [n] (`sources[].index`): written by the configured chat model, or by the built-in extractive answerer offline. Requires the NAMESPACE_READ permission.
     */
    post: operations["ask"];
    /** Not allowed: DELETE /ask answers 405 */
    delete: operations["deleteAskNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /ask answers 405 */
    patch: operations["patchAskNotAllowed"];
    trace?: never;
  };
  "/forget": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /forget answers 405 */
    get: operations["getForgetNotAllowed"];
    /** Not allowed: PUT /forget answers 405 */
    put: operations["putForgetNotAllowed"];
    /**
     * Forget
     * @description Delete the memories matching every selector given (memory_ids, identity_id, scopes, metadata) or all: true; or an identity's memories in every namespace the key may write (all_namespaces: true). Irreversible; records an erasure receipt (erasure_id). Requires the NAMESPACE_WRITE permission.
     */
    post: operations["forget"];
    /** Not allowed: DELETE /forget answers 405 */
    delete: operations["deleteForgetNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /forget answers 405 */
    patch: operations["patchForgetNotAllowed"];
    trace?: never;
  };
  "/erasures": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List erasures
     * @description Erasure receipts, newest first: every forget and namespace deletion, with its selector, how many memories and chunks it deleted from which namespaces, who asked and when (never content). Requires the NAMESPACE_MANAGE permission.
     */
    get: operations["listErasures"];
    /** Not allowed: PUT /erasures answers 405 */
    put: operations["putErasuresNotAllowed"];
    /** Not allowed: POST /erasures answers 405 */
    post: operations["postErasuresNotAllowed"];
    /** Not allowed: DELETE /erasures answers 405 */
    delete: operations["deleteErasuresNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /erasures answers 405 */
    patch: operations["patchErasuresNotAllowed"];
    trace?: never;
  };
  "/memories/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get memory
     * @description One memory, in a namespace granted to the key and within its scopes. Requires the NAMESPACE_READ permission.
     */
    get: operations["getMemory"];
    /** Not allowed: PUT /memories/{id} answers 405 */
    put: operations["putMemoriesIdNotAllowed"];
    /** Not allowed: POST /memories/{id} answers 405 */
    post: operations["postMemoriesIdNotAllowed"];
    /** Not allowed: DELETE /memories/{id} answers 405 */
    delete: operations["deleteMemoriesIdNotAllowed"];
    options?: never;
    head?: never;
    /**
     * Update memory
     * @description Change a memory's content, metadata, scopes, identity, event time, expiry or validity (valid_at, invalid_at, fact_key); new content is embedded again; the version it replaces is kept (GET /memories/{id}/history). Requires the NAMESPACE_WRITE permission.
     */
    patch: operations["updateMemory"];
    trace?: never;
  };
  "/memories/{id}/history": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Memory history
     * @description A memory's versions, newest first, the current one included: what each changed, who wrote it and when (within the key's scopes). Requires the NAMESPACE_READ permission.
     */
    get: operations["memoryHistory"];
    /** Not allowed: PUT /memories/{id}/history answers 405 */
    put: operations["putMemoriesIdHistoryNotAllowed"];
    /** Not allowed: POST /memories/{id}/history answers 405 */
    post: operations["postMemoriesIdHistoryNotAllowed"];
    /** Not allowed: DELETE /memories/{id}/history answers 405 */
    delete: operations["deleteMemoriesIdHistoryNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /memories/{id}/history answers 405 */
    patch: operations["patchMemoriesIdHistoryNotAllowed"];
    trace?: never;
  };
  "/memories": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List memories
     * @description A namespace's memories, newest first, a page at a time (follow pagination.nextCursor), filtered by identity, scope pairs and metadata values, within the key's scopes. Requires the NAMESPACE_READ permission.
     */
    get: operations["listMemories"];
    /** Not allowed: PUT /memories answers 405 */
    put: operations["putMemoriesNotAllowed"];
    /** Not allowed: POST /memories answers 405 */
    post: operations["postMemoriesNotAllowed"];
    /** Not allowed: DELETE /memories answers 405 */
    delete: operations["deleteMemoriesNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /memories answers 405 */
    patch: operations["patchMemoriesNotAllowed"];
    trace?: never;
  };
  "/identities/{id}/profile": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Identity profile
     * @description What holds of an identity in one namespace, now or as_of a time: its current facts (one per fact_key or inferred slot, each with since when), its recent memories, its main entities and what replaced what. Requires the NAMESPACE_READ permission.
     */
    get: operations["identityProfile"];
    /** Not allowed: PUT /identities/{id}/profile answers 405 */
    put: operations["putIdentitiesIdProfileNotAllowed"];
    /** Not allowed: POST /identities/{id}/profile answers 405 */
    post: operations["postIdentitiesIdProfileNotAllowed"];
    /** Not allowed: DELETE /identities/{id}/profile answers 405 */
    delete: operations["deleteIdentitiesIdProfileNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /identities/{id}/profile answers 405 */
    patch: operations["patchIdentitiesIdProfileNotAllowed"];
    trace?: never;
  };
  "/documents": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List documents
     * @description List a namespace's documents, newest first. Requires the NAMESPACE_READ permission.
     */
    get: operations["listDocuments"];
    /** Not allowed: PUT /documents answers 405 */
    put: operations["putDocumentsNotAllowed"];
    /**
     * Add document
     * @description Add a document (a multipart `file`, a `url` or inline `content`): 202 with it queued; its passages become memories with their page and section once it is `ready`. Requires the NAMESPACE_WRITE permission.
     */
    post: operations["addDocument"];
    /** Not allowed: DELETE /documents answers 405 */
    delete: operations["deleteDocumentsNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /documents answers 405 */
    patch: operations["patchDocumentsNotAllowed"];
    trace?: never;
  };
  "/documents/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get document
     * @description Get a document: its status, pages, passages and error. Requires the NAMESPACE_READ permission.
     */
    get: operations["getDocument"];
    /** Not allowed: PUT /documents/{id} answers 405 */
    put: operations["putDocumentsIdNotAllowed"];
    /** Not allowed: POST /documents/{id} answers 405 */
    post: operations["postDocumentsIdNotAllowed"];
    /**
     * Delete document
     * @description Delete a document with its original and the memories of its passages. Requires the NAMESPACE_WRITE permission.
     */
    delete: operations["deleteDocument"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /documents/{id} answers 405 */
    patch: operations["patchDocumentsIdNotAllowed"];
    trace?: never;
  };
  "/documents/{id}/text": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Document text
     * @description The text extracted from a document, by page and heading; 409 while it has none yet (queued, processing, failed). Requires the NAMESPACE_READ permission.
     */
    get: operations["documentText"];
    /** Not allowed: PUT /documents/{id}/text answers 405 */
    put: operations["putDocumentsIdTextNotAllowed"];
    /** Not allowed: POST /documents/{id}/text answers 405 */
    post: operations["postDocumentsIdTextNotAllowed"];
    /** Not allowed: DELETE /documents/{id}/text answers 405 */
    delete: operations["deleteDocumentsIdTextNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /documents/{id}/text answers 405 */
    patch: operations["patchDocumentsIdTextNotAllowed"];
    trace?: never;
  };
  "/documents/{id}/content": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Document content
     * @description The document's original bytes, as a download. Requires the NAMESPACE_READ permission.
     */
    get: operations["documentContent"];
    /** Not allowed: PUT /documents/{id}/content answers 405 */
    put: operations["putDocumentsIdContentNotAllowed"];
    /** Not allowed: POST /documents/{id}/content answers 405 */
    post: operations["postDocumentsIdContentNotAllowed"];
    /** Not allowed: DELETE /documents/{id}/content answers 405 */
    delete: operations["deleteDocumentsIdContentNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /documents/{id}/content answers 405 */
    patch: operations["patchDocumentsIdContentNotAllowed"];
    trace?: never;
  };
  "/documents/{id}/refresh": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /documents/{id}/refresh answers 405 */
    get: operations["getDocumentsIdRefreshNotAllowed"];
    /** Not allowed: PUT /documents/{id}/refresh answers 405 */
    put: operations["putDocumentsIdRefreshNotAllowed"];
    /**
     * Refresh document
     * @description Fetch a URL's document again and replace its passages. Requires the NAMESPACE_WRITE permission.
     */
    post: operations["refreshDocument"];
    /** Not allowed: DELETE /documents/{id}/refresh answers 405 */
    delete: operations["deleteDocumentsIdRefreshNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /documents/{id}/refresh answers 405 */
    patch: operations["patchDocumentsIdRefreshNotAllowed"];
    trace?: never;
  };
  "/entities": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List entities
     * @description The people, organizations, places, works, events and dates a namespace's memories name, the most mentioned first, a page at a time (follow pagination.nextCursor), filtered by kind and by a part of the name or an alias; counts over the memories within the key's scopes (an entity only other memories name is not listed). Requires the NAMESPACE_READ permission.
     */
    get: operations["listEntities"];
    /** Not allowed: PUT /entities answers 405 */
    put: operations["putEntitiesNotAllowed"];
    /** Not allowed: POST /entities answers 405 */
    post: operations["postEntitiesNotAllowed"];
    /** Not allowed: DELETE /entities answers 405 */
    delete: operations["deleteEntitiesNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /entities answers 405 */
    patch: operations["patchEntitiesNotAllowed"];
    trace?: never;
  };
  "/entities/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get entity
     * @description One entity: its aliases, how many memories mention it and how often, its first and last mention (event time), and the entities mentioned with it, within the key's scopes. Requires the NAMESPACE_READ permission.
     */
    get: operations["getEntity"];
    /** Not allowed: PUT /entities/{id} answers 405 */
    put: operations["putEntitiesIdNotAllowed"];
    /** Not allowed: POST /entities/{id} answers 405 */
    post: operations["postEntitiesIdNotAllowed"];
    /** Not allowed: DELETE /entities/{id} answers 405 */
    delete: operations["deleteEntitiesIdNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /entities/{id} answers 405 */
    patch: operations["patchEntitiesIdNotAllowed"];
    trace?: never;
  };
  "/identities/{id}/entities": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Identity entities
     * @description What an identity's memories are about: the entities they mention, by how many of them mention each, in one namespace or every one the key may use, within the key's scopes. Requires the NAMESPACE_READ permission.
     */
    get: operations["identityEntities"];
    /** Not allowed: PUT /identities/{id}/entities answers 405 */
    put: operations["putIdentitiesIdEntitiesNotAllowed"];
    /** Not allowed: POST /identities/{id}/entities answers 405 */
    post: operations["postIdentitiesIdEntitiesNotAllowed"];
    /** Not allowed: DELETE /identities/{id}/entities answers 405 */
    delete: operations["deleteIdentitiesIdEntitiesNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /identities/{id}/entities answers 405 */
    patch: operations["patchIdentitiesIdEntitiesNotAllowed"];
    trace?: never;
  };
  "/integrations/providers": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List integration providers
     * @description Every provider a namespace can be connected to, and whether this organization can connect it. Requires the INTEGRATION_MANAGE permission.
     */
    get: operations["listIntegrationProviders"];
    /** Not allowed: PUT /integrations/providers answers 405 */
    put: operations["putIntegrationsProvidersNotAllowed"];
    /** Not allowed: POST /integrations/providers answers 405 */
    post: operations["postIntegrationsProvidersNotAllowed"];
    /** Not allowed: DELETE /integrations/providers answers 405 */
    delete: operations["deleteIntegrationsProvidersNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/providers answers 405 */
    patch: operations["patchIntegrationsProvidersNotAllowed"];
    trace?: never;
  };
  "/integrations/connections": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List integration connections
     * @description The connections of the namespaces the key may use, newest first. Requires the INTEGRATION_MANAGE permission.
     */
    get: operations["listIntegrationConnections"];
    /** Not allowed: PUT /integrations/connections answers 405 */
    put: operations["putIntegrationsConnectionsNotAllowed"];
    /**
     * Create integration connection
     * @description Start connecting a namespace to a provider: a pending connection and the provider's consent page (OAuth 2.0 authorization code, PKCE where supported; the state is single-use and valid 10 minutes). Requires the INTEGRATION_MANAGE permission.
     */
    post: operations["createIntegrationConnection"];
    /** Not allowed: DELETE /integrations/connections answers 405 */
    delete: operations["deleteIntegrationsConnectionsNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/connections answers 405 */
    patch: operations["patchIntegrationsConnectionsNotAllowed"];
    trace?: never;
  };
  "/integrations/connections/{id}/complete": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /integrations/connections/{id}/complete answers 405 */
    get: operations["getIntegrationsConnectionsIdCompleteNotAllowed"];
    /** Not allowed: PUT /integrations/connections/{id}/complete answers 405 */
    put: operations["putIntegrationsConnectionsIdCompleteNotAllowed"];
    /**
     * Complete integration connection
     * @description Finish connecting with the code and state the provider sent back; queues the first sync. Requires the INTEGRATION_MANAGE permission.
     */
    post: operations["completeIntegrationConnection"];
    /** Not allowed: DELETE /integrations/connections/{id}/complete answers 405 */
    delete: operations["deleteIntegrationsConnectionsIdCompleteNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/connections/{id}/complete answers 405 */
    patch: operations["patchIntegrationsConnectionsIdCompleteNotAllowed"];
    trace?: never;
  };
  "/integrations/connections/{id}/reconnect": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /integrations/connections/{id}/reconnect answers 405 */
    get: operations["getIntegrationsConnectionsIdReconnectNotAllowed"];
    /** Not allowed: PUT /integrations/connections/{id}/reconnect answers 405 */
    put: operations["putIntegrationsConnectionsIdReconnectNotAllowed"];
    /**
     * Reconnect integration connection
     * @description Authorize an existing connection again (its access was refused or revoked): a new consent page URL and state; completing it keeps the connection's memories and syncs what changed. Requires the INTEGRATION_MANAGE permission.
     */
    post: operations["reconnectIntegrationConnection"];
    /** Not allowed: DELETE /integrations/connections/{id}/reconnect answers 405 */
    delete: operations["deleteIntegrationsConnectionsIdReconnectNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/connections/{id}/reconnect answers 405 */
    patch: operations["patchIntegrationsConnectionsIdReconnectNotAllowed"];
    trace?: never;
  };
  "/integrations/connections/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get integration connection
     * @description One connection: status, last sync, documents synced, last error. Requires the INTEGRATION_MANAGE permission.
     */
    get: operations["getIntegrationConnection"];
    /** Not allowed: PUT /integrations/connections/{id} answers 405 */
    put: operations["putIntegrationsConnectionsIdNotAllowed"];
    /** Not allowed: POST /integrations/connections/{id} answers 405 */
    post: operations["postIntegrationsConnectionsIdNotAllowed"];
    /**
     * Delete integration connection
     * @description Revoke the token at the provider, delete the connection and, unless keep_memories=true, every memory it brought. Requires the INTEGRATION_MANAGE permission.
     */
    delete: operations["deleteIntegrationConnection"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/connections/{id} answers 405 */
    patch: operations["patchIntegrationsConnectionsIdNotAllowed"];
    trace?: never;
  };
  "/integrations/connections/{id}/sync": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /integrations/connections/{id}/sync answers 405 */
    get: operations["getIntegrationsConnectionsIdSyncNotAllowed"];
    /** Not allowed: PUT /integrations/connections/{id}/sync answers 405 */
    put: operations["putIntegrationsConnectionsIdSyncNotAllowed"];
    /**
     * Sync integration connection
     * @description Queue a sync now (409 while one is queued or running). Requires the INTEGRATION_MANAGE permission.
     */
    post: operations["syncIntegrationConnection"];
    /** Not allowed: DELETE /integrations/connections/{id}/sync answers 405 */
    delete: operations["deleteIntegrationsConnectionsIdSyncNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /integrations/connections/{id}/sync answers 405 */
    patch: operations["patchIntegrationsConnectionsIdSyncNotAllowed"];
    trace?: never;
  };
  "/events": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events
     * @description The changes to the memory the key may read, oldest first, after a cursor: poll with next_cursor to follow them (kept EVENT_RETENTION_DAYS, 30 by default). Requires the NAMESPACE_READ permission.
     */
    get: operations["listEvents"];
    /** Not allowed: PUT /events answers 405 */
    put: operations["putEventsNotAllowed"];
    /** Not allowed: POST /events answers 405 */
    post: operations["postEventsNotAllowed"];
    /** Not allowed: DELETE /events answers 405 */
    delete: operations["deleteEventsNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /events answers 405 */
    patch: operations["patchEventsNotAllowed"];
    trace?: never;
  };
  "/webhooks": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description The organization's webhook endpoints (a key sees those it made). Requires the WEBHOOK_MANAGE permission.
     */
    get: operations["listWebhooks"];
    /** Not allowed: PUT /webhooks answers 405 */
    put: operations["putWebhooksNotAllowed"];
    /**
     * Create webhook
     * @description Add an endpoint that receives events, signed the Standard Webhooks way; its secret is returned this once. Requires the WEBHOOK_MANAGE permission.
     */
    post: operations["createWebhook"];
    /** Not allowed: DELETE /webhooks answers 405 */
    delete: operations["deleteWebhooksNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /webhooks answers 405 */
    patch: operations["patchWebhooksNotAllowed"];
    trace?: never;
  };
  "/webhooks/{id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Get webhook
     * @description One endpoint: its filters, whether it is enabled and why not. Requires the WEBHOOK_MANAGE permission.
     */
    get: operations["getWebhook"];
    /** Not allowed: PUT /webhooks/{id} answers 405 */
    put: operations["putWebhooksIdNotAllowed"];
    /** Not allowed: POST /webhooks/{id} answers 405 */
    post: operations["postWebhooksIdNotAllowed"];
    /**
     * Delete webhook
     * @description Delete an endpoint with its delivery log. Requires the WEBHOOK_MANAGE permission.
     */
    delete: operations["deleteWebhook"];
    options?: never;
    head?: never;
    /**
     * Update webhook
     * @description Change an endpoint; enabling a disabled one resumes its deliveries where they stopped. Requires the WEBHOOK_MANAGE permission.
     */
    patch: operations["updateWebhook"];
    trace?: never;
  };
  "/webhooks/{id}/rotate-secret": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /webhooks/{id}/rotate-secret answers 405 */
    get: operations["getWebhooksIdRotateSecretNotAllowed"];
    /** Not allowed: PUT /webhooks/{id}/rotate-secret answers 405 */
    put: operations["putWebhooksIdRotateSecretNotAllowed"];
    /**
     * Rotate webhook secret
     * @description A new signing secret, returned this once; the old one keeps signing beside it for overlap_hours (24 by default). Requires the WEBHOOK_MANAGE permission.
     */
    post: operations["rotateWebhookSecret"];
    /** Not allowed: DELETE /webhooks/{id}/rotate-secret answers 405 */
    delete: operations["deleteWebhooksIdRotateSecretNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /webhooks/{id}/rotate-secret answers 405 */
    patch: operations["patchWebhooksIdRotateSecretNotAllowed"];
    trace?: never;
  };
  "/webhooks/{id}/test": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /webhooks/{id}/test answers 405 */
    get: operations["getWebhooksIdTestNotAllowed"];
    /** Not allowed: PUT /webhooks/{id}/test answers 405 */
    put: operations["putWebhooksIdTestNotAllowed"];
    /**
     * Test webhook
     * @description Send a signed webhook.test message now and say how the endpoint answered. Requires the WEBHOOK_MANAGE permission.
     */
    post: operations["testWebhook"];
    /** Not allowed: DELETE /webhooks/{id}/test answers 405 */
    delete: operations["deleteWebhooksIdTestNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /webhooks/{id}/test answers 405 */
    patch: operations["patchWebhooksIdTestNotAllowed"];
    trace?: never;
  };
  "/webhooks/{id}/deliveries": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhook deliveries
     * @description An endpoint's delivery log, newest first: status, answer, latency, attempts and payload. Requires the WEBHOOK_MANAGE permission.
     */
    get: operations["listWebhookDeliveries"];
    /** Not allowed: PUT /webhooks/{id}/deliveries answers 405 */
    put: operations["putWebhooksIdDeliveriesNotAllowed"];
    /** Not allowed: POST /webhooks/{id}/deliveries answers 405 */
    post: operations["postWebhooksIdDeliveriesNotAllowed"];
    /** Not allowed: DELETE /webhooks/{id}/deliveries answers 405 */
    delete: operations["deleteWebhooksIdDeliveriesNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /webhooks/{id}/deliveries answers 405 */
    patch: operations["patchWebhooksIdDeliveriesNotAllowed"];
    trace?: never;
  };
  "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /webhooks/{id}/deliveries/{deliveryId}/redeliver answers 405 */
    get: operations["getWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed"];
    /** Not allowed: PUT /webhooks/{id}/deliveries/{deliveryId}/redeliver answers 405 */
    put: operations["putWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed"];
    /**
     * Redeliver webhook delivery
     * @description Send a delivery again, now, with the same webhook-id. Requires the WEBHOOK_MANAGE permission.
     */
    post: operations["redeliverWebhookDelivery"];
    /** Not allowed: DELETE /webhooks/{id}/deliveries/{deliveryId}/redeliver answers 405 */
    delete: operations["deleteWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /webhooks/{id}/deliveries/{deliveryId}/redeliver answers 405 */
    patch: operations["patchWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed"];
    trace?: never;
  };
  "/mcp/{namespace_id}": {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Not allowed: GET /mcp/{namespace_id} answers 405 */
    get: operations["getMcpNamespace_idNotAllowed"];
    /** Not allowed: PUT /mcp/{namespace_id} answers 405 */
    put: operations["putMcpNamespace_idNotAllowed"];
    /**
     * MCP endpoint
     * @description The namespace's MCP endpoint: tools remember, recall, recall_by_entity, list_entities, ask, get_profile, forget and add_document, run with the key's permissions and scopes.
     */
    post: operations["mcp"];
    /** Not allowed: DELETE /mcp/{namespace_id} answers 405 */
    delete: operations["deleteMcpNamespace_idNotAllowed"];
    options?: never;
    head?: never;
    /** Not allowed: PATCH /mcp/{namespace_id} answers 405 */
    patch: operations["patchMcpNamespace_idNotAllowed"];
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    Error: {
      /** @constant */
      success: false;
      error: {
        /** @enum {string} */
        code:
          | "BAD_REQUEST"
          | "UNAUTHORIZED"
          | "FORBIDDEN"
          | "NOT_FOUND"
          | "METHOD_NOT_ALLOWED"
          | "REQUEST_TIMEOUT"
          | "CONFLICT"
          | "PAYLOAD_TOO_LARGE"
          | "UNSUPPORTED_MEDIA_TYPE"
          | "REQUEST_HEADERS_TOO_LARGE"
          | "RATE_LIMITED"
          | "INTERNAL_SERVER_ERROR"
          | "UPSTREAM_ERROR"
          | "SERVICE_UNAVAILABLE";
        message: string;
        details?: {
          field: string;
          message: string;
        }[];
        /** @description the request's id, also in the Request-Id header: quote it when you report a problem */
        request_id?: string;
      };
    };
    Namespace: {
      id: string;
      org_id: string;
      name: string;
      /** Format: uri */
      mcp_endpoint_url: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      updated_at: string;
      description: string | null;
      external_reference_id: string | null;
      /** @description every write has the chat model extract its facts (as `infer: true` on each), unless it says `infer: false`; only on a server with a chat model (OPENAI_BASE_URL, OPENAI_API_KEY) */
      infer: boolean;
    };
    Pagination: {
      page: number;
      pageSize: number;
      total: number;
      totalPages: number;
    };
    CreateNamespaceBody: {
      /** @description NFC-normalized and trimmed; control, zero-width and bidirectional-override characters are refused */
      name: string;
      description?: string;
      external_reference_id?: string;
      /** @description every write has the chat model extract its facts (as `infer: true` on each), unless it says `infer: false`; only on a server with a chat model (OPENAI_BASE_URL, OPENAI_API_KEY) */
      infer?: boolean;
    };
    UpdateNamespaceBody: {
      /** @description NFC-normalized and trimmed; control, zero-width and bidirectional-override characters are refused */
      name?: string;
      /** @description null clears it */
      description?: string | null;
      /** @description null clears it */
      external_reference_id?: string | null;
      /** @description every write has the chat model extract its facts (as `infer: true` on each), unless it says `infer: false`; only on a server with a chat model (OPENAI_BASE_URL, OPENAI_API_KEY) */
      infer?: boolean;
    };
    Deleted: {
      id: string;
      /** @constant */
      deleted: true;
    };
    ExportLine:
      | {
          /** @constant */
          type: "header";
          /** @constant */
          format: "memory-gateway-export";
          /** @constant */
          version: 1;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          exported_at: string;
          namespace: {
            id: string;
            name: string;
            description: string | null;
            external_reference_id: string | null;
          };
          embedding_model: string;
          vectors: boolean;
          scopes: {
            [key: string]: string;
          };
        }
      | {
          /** @constant */
          type: "document";
          id: string;
          title: string | null;
          content_type: string;
          source_url: string | null;
          filename: string | null;
          metadata: {
            [key: string]: unknown;
          };
          scopes: {
            [key: string]: string;
          };
          identity_id: string | null;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          created_at: string;
          /** @description the original bytes, base64 */
          original: string;
        }
      | {
          /** @constant */
          type: "memory";
          id: string;
          content: string;
          metadata: {
            [key: string]: unknown;
          };
          scopes: {
            [key: string]: string;
          };
          identity_id: string | null;
          session_id: string | null;
          position: number | null;
          role: string | null;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          occurred_at: string;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          created_at: string;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          updated_at: string;
          expires_at: string | null;
          /** @description ISO 8601 UTC timestamp with milliseconds */
          valid_at: string;
          invalid_at: string | null;
          /** @description the id, where it was exported, of the memory that replaced it */
          superseded_by: string | null;
          supersession: {
            /**
             * @description fact_key: a newer memory of its slot; named: a memory's supersedes; inferred: found offline to restate the same slot (recall demotes it, not hides it); model: a chat model's decision; caller: PATCH
             * @enum {string}
             */
            kind: "fact_key" | "named" | "inferred" | "model" | "caller";
            /** @description inferred: how alike the two statements are, 0 to 1 */
            similarity?: number;
            /** @description inferred: what the inference weighed */
            basis?: string;
          } | null;
          fact_key: string | null;
          /**
           * @description fact: extracted by a chat model from the memories in derived_from
           * @enum {string}
           */
          kind: "memory" | "fact";
          /** @description a fact's sources, by their ids where it was exported */
          derived_from: string[];
          version: number;
          /** @description every version, newest first, the current one included */
          history: components["schemas"]["MemoryVersion"][];
          embedding_model: string | null;
          /** @description with include_vectors=true */
          chunks?: {
            position: number;
            content: string;
            vector: number[];
          }[];
        };
    MemoryVersion: {
      /** @description 1 for the memory as remembered, one more with each change */
      version: number;
      content: string;
      metadata: {
        [key: string]: unknown;
      };
      scopes: {
        [key: string]: string;
      };
      identity_id: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      occurred_at: string;
      expires_at: string | null;
      /** @description what this version changed against the one before it (content, metadata, scopes, identity_id, occurred_at, expires_at); [] for version 1 */
      changed_fields: string[];
      /** @description who wrote this version; null when it was not recorded */
      changed_by: components["schemas"]["VersionAuthor"] | null;
      /** @description when this version was written */
      changed_at: string;
    };
    VersionAuthor: {
      /**
       * @description an API key, a console user, or an integration's sync
       * @enum {string}
       */
      kind: "api_key" | "user" | "integration";
      /** @description the key's, user's or integration connection's id */
      id: string | null;
      /** @description its name then: the key's name, the user's email, the provider */
      name: string | null;
    };
    Instant: string;
    Metadata: {
      [key: string]: string | number | boolean | null;
    };
    Scopes: {
      [key: string]: string;
    };
    IdentityId: string;
    SessionId: string;
    ImportResult: {
      /** @description memories written */
      imported: number;
      /** @description memory lines whose expires_at had passed: not imported */
      skipped_expired: number;
      /** @description the new ids of the memories written, in the order of their lines */
      memory_ids: string[];
      /** @description the new ids of the documents, queued to be processed again from their originals */
      document_ids: string[];
    };
    Grant: {
      id: string;
      namespace_id: string;
      api_key_id: string | null;
      user_id: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
    };
    CreateGrantBody: {
      api_key_id?: string;
      user_id?: string;
    } & (unknown | unknown);
    RememberBody: {
      namespace_id?: string;
      external_reference_id?: string;
      content?: string;
      /** @description a batch; metadata, scopes and identity_id beside it apply to items that do not set their own */
      memories?: components["schemas"]["MemoryItem"][];
      /** @description the conversation the messages belong to; a later call with the same session_id appends to it */
      session_id?: components["schemas"]["SessionId"];
      /** @description a conversation's turns in order: each becomes a memory with session_id, position and role */
      messages?: components["schemas"]["ConversationMessage"][];
      metadata?: components["schemas"]["Metadata"];
      scopes?: components["schemas"]["Scopes"];
      identity_id?: components["schemas"]["IdentityId"];
      /** @description when it happened (event time); default: the time of the request */
      occurred_at?: components["schemas"]["Instant"];
      /** @description when the memory expires: it is never returned after this and is deleted within a minute */
      expires_at?: components["schemas"]["Instant"];
      /** @description expires this many seconds from now (instead of expires_at) */
      ttl_seconds?: number;
      /** @description since when what it states holds; default: its occurred_at */
      valid_at?: components["schemas"]["Instant"];
      /** @description your name for the slot this memory fills (home_city): a newer memory of the same namespace, identity, scopes and fact_key replaces the one that holds */
      fact_key?: string;
      /** @description ids of memories this one replaces (same namespace, readable by the key): they stop holding at its valid_at */
      supersedes?: string[];
      /** @description store content identical to an existing memory (same namespace, identity and scopes) again */
      allow_duplicate?: boolean;
      /** @description have the chat model extract atomic facts from what is written and keep them current (needs OPENAI_BASE_URL or OPENAI_API_KEY on the server); default: the namespace's `infer` */
      infer?: boolean;
    } & ((unknown | unknown) & unknown & (unknown | unknown | unknown) & (unknown | unknown));
    MemoryItem: {
      content: string;
      metadata?: components["schemas"]["Metadata"];
      scopes?: components["schemas"]["Scopes"];
      identity_id?: components["schemas"]["IdentityId"];
      /** @description when it happened (event time); default: the time of the request */
      occurred_at?: components["schemas"]["Instant"];
      /** @description when the memory expires: it is never returned after this and is deleted within a minute */
      expires_at?: components["schemas"]["Instant"];
      /** @description expires this many seconds from now (instead of expires_at) */
      ttl_seconds?: number;
      /** @description since when what it states holds; default: its occurred_at */
      valid_at?: components["schemas"]["Instant"];
      /** @description your name for the slot this memory fills (home_city): a newer memory of the same namespace, identity, scopes and fact_key replaces the one that holds */
      fact_key?: string;
      /** @description ids of memories this one replaces (same namespace, readable by the key): they stop holding at its valid_at */
      supersedes?: string[];
    };
    ConversationMessage: {
      /** @description who said it: "user", "assistant", or a speaker's name */
      role: string;
      content: string;
      /** @description when it happened (event time); default: the time of the request */
      occurred_at?: components["schemas"]["Instant"];
      metadata?: components["schemas"]["Metadata"];
    };
    Memory: {
      id: string;
      namespace_id: string;
      content: string;
      metadata: {
        [key: string]: unknown;
      };
      scopes: {
        [key: string]: string;
      };
      identity_id: string | null;
      chunk_count: number;
      /** @description the conversation this turn belongs to */
      session_id: string | null;
      /** @description the turn's place in its conversation: 0, 1, … */
      position: number | null;
      /** @description who said it */
      role: string | null;
      /** @description when it happened (event time) */
      occurred_at: string;
      expires_at: string | null;
      /** @description 1, then one more with each change */
      version: number;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      updated_at: string;
      /** @description since when what it states holds (event time) */
      valid_at: string;
      /** @description when it stopped holding; null while it holds */
      invalid_at: string | null;
      /** @description the memory that replaced it */
      superseded_by: string | null;
      /** @description the memories it replaced */
      supersedes: string[];
      /** @description how it came to be closed; null while it holds */
      supersession: {
        /**
         * @description fact_key: a newer memory of its slot; named: a memory's supersedes; inferred: found offline to restate the same slot (recall demotes it, not hides it); model: a chat model's decision; caller: PATCH
         * @enum {string}
         */
        kind: "fact_key" | "named" | "inferred" | "model" | "caller";
        /** @description inferred: how alike the two statements are, 0 to 1 */
        similarity?: number;
        /** @description inferred: what the inference weighed */
        basis?: string;
      } | null;
      fact_key: string | null;
      /**
       * @description memory: written by a caller; fact: extracted by a chat model from the memories in derived_from
       * @enum {string}
       */
      kind: "memory" | "fact";
      /** @description a fact's sources: forgetting one of them forgets the fact */
      derived_from: string[];
      /** @description the chat model's extraction of facts from it (`infer`); null when it was not given to a model */
      inference: {
        /**
         * @description queued, running (retried on 429, 5xx and time-outs), done, or failed (the memory stays as written)
         * @enum {string}
         */
        status: "queued" | "running" | "done" | "failed";
        /** @description calls of the model so far */
        attempts: number;
        /** @description tokens the model spent on it so far (bounded per write) */
        tokens: number;
        /** @description times the model answered 429 (waited out without spending attempts) */
        rate_limited: number;
        /** @description the facts (memories of kind fact) extracted from it */
        facts: string[];
        /** @description why the last attempt failed */
        error: string | null;
        /** @description the chat model */
        model: string | null;
        /** @description ISO 8601 UTC timestamp with milliseconds */
        updated_at: string;
      } | null;
      /** @description remember only: true when identical content was already stored and that memory is returned */
      deduplicated?: boolean;
    };
    RecallBody: {
      namespace_id?: string;
      external_reference_id?: string;
      query: string;
      /** @default 10 */
      top_k?: number;
      /** @description leave out matches scoring less (0.5: the likely answers); instead of the relevance floor */
      min_score?: number;
      scopes?: components["schemas"]["Scopes"];
      identity_id?: components["schemas"]["IdentityId"];
      /** @description only memories whose metadata has these exact values */
      metadata?: components["schemas"]["Metadata"];
      /** @description only turns of this conversation */
      session_id?: components["schemas"]["SessionId"];
      /** @description only memories that happened at or after this time */
      occurred_after?: components["schemas"]["Instant"];
      /** @description only memories that happened before this time */
      occurred_before?: components["schemas"]["Instant"];
      /** @description only memories that mention every one of these entities: an id (GET /entities) or a name ("Caroline", "Mel's", "Grand Canyon", a date as "May 2023" or "2023-05"), matched as writes merge mentions (case, possessives, aliases); a name no memory mentions matches nothing */
      entities?: string[];
      /**
       * @description with each match of a conversation turn, this many turns before and after it in its session (the request's scopes and filters apply to them too)
       * @default 0
       */
      context?: number;
      /** @description what held at this time: memories that did not hold then are left out (default: what holds now) */
      as_of?: components["schemas"]["Instant"];
      /** @description every memory, whatever its validity, each with its validity fields (default: what holds) */
      include_superseded?: boolean;
    } & (unknown | unknown);
    Match: {
      memory_id: string;
      chunk_id: string;
      /** @description the matching chunk */
      content: string;
      /** @description how likely the memory is relevant, 0 to 1, on one scale for every query; never rising down the list */
      score: number;
      metadata: {
        [key: string]: unknown;
      };
      scopes: {
        [key: string]: string;
      };
      identity_id: string | null;
      session_id: string | null;
      position: number | null;
      role: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      occurred_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description since when what it states holds */
      valid_at: string;
      /** @description when it stopped holding; null while it holds */
      invalid_at: string | null;
      /** @description the memory that replaced it */
      superseded_by: string | null;
      /** @description with `context: n`, the turns around a conversation turn, in order; empty for a plain memory */
      context: components["schemas"]["ContextTurn"][];
      document: components["schemas"]["DocumentCitation"] | null;
      /** @description why the memory matched, from what the search found */
      match_reasons: {
        /** @description the query's words (as sent) the memory has, compared by stem: in its text, or for a conversation turn, its speaker (role) */
        terms: string[];
        /** @description cosine similarity of the matching chunk and the query, 0 to 1; null when not compared */
        similarity: number | null;
        /**
         * @description what carried the score: the query's words; its meaning (similarity at least 0.3, the relevance floor's); both; or, for a conversation turn, the neighbouring turns it borrows evidence from
         * @enum {string}
         */
        via: "words" | "meaning" | "words and meaning" | "conversation context";
      };
      /** @description the entities the memory mentions, the most mentioned first */
      entities: components["schemas"]["EntityRef"][];
    };
    ContextTurn: {
      memory_id: string;
      position: number;
      role: string | null;
      /** @description the turn; of one longer than 2,000 characters, the 2,000 nearest the match (truncated: true) */
      content: string;
      truncated: boolean;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      occurred_at: string;
    };
    /** @description for a passage of a document: which document, and where in it */
    DocumentCitation: {
      id: string;
      title: string | null;
      source_url: string | null;
      /** @description the page the passage is on (PDF, image); null without pages */
      page: number | null;
      /** @description the heading path above it, e.g. "Benefits > Parental leave" */
      section: string | null;
    };
    EntityRef: {
      id: string;
      /**
       * @description what the entity is
       * @enum {string}
       */
      kind: "person" | "organization" | "place" | "work" | "event" | "date" | "other";
      /** @description as first written; a date as the day, month, season or year it resolves to */
      name: string;
    };
    AskBody: {
      namespace_id?: string;
      external_reference_id?: string;
      /** @description the question */
      query: string;
      /**
       * @description how many memories to answer from
       * @default 5
       */
      top_k?: number;
      scopes?: components["schemas"]["Scopes"];
      identity_id?: components["schemas"]["IdentityId"];
      /** @description only turns of this conversation */
      session_id?: components["schemas"]["SessionId"];
      /** @description only memories that happened at or after this time */
      occurred_after?: components["schemas"]["Instant"];
      /** @description only memories that happened before this time */
      occurred_before?: components["schemas"]["Instant"];
      /** @description only memories that mention every one of these entities: an id (GET /entities) or a name ("Caroline", "Mel's", "Grand Canyon", a date as "May 2023" or "2023-05"), matched as writes merge mentions (case, possessives, aliases); a name no memory mentions matches nothing */
      entities?: string[];
      /**
       * @description with each match of a conversation turn, this many turns before and after it in its session (the request's scopes and filters apply to them too)
       * @default 0
       */
      context?: number;
      /** @description what held at this time: memories that did not hold then are left out (default: what holds now) */
      as_of?: components["schemas"]["Instant"];
    } & (unknown | unknown);
    AskResult: {
      /** @description the answer, citing its sources as [1], [2]; says so when nothing in memory answers */
      answer: string;
      /** @description the memories the answer was made from; empty when none is relevant */
      sources: components["schemas"]["Source"][];
      /** @description the chat model that wrote the answer, or "extractive" for the built-in answerer */
      model: string;
    };
    Source: {
      /** @description what the answer cites as [index] */
      index: number;
      memory_id: string;
      chunk_id: string;
      content: string;
      score: number;
      session_id: string | null;
      position: number | null;
      role: string | null;
      /** @description when it happened: the answerers are given it */
      occurred_at: string;
      /** @description since when what it states holds */
      valid_at: string;
      /** @description when it stopped holding; null while it holds */
      invalid_at: string | null;
      /** @description the memory that replaced it */
      superseded_by: string | null;
      /** @description with `context: n`, the turns around it, read by the answerers too */
      context: components["schemas"]["ContextTurn"][];
      document: components["schemas"]["DocumentCitation"] | null;
    };
    ForgetBody: {
      namespace_id?: string;
      external_reference_id?: string;
      memory_ids?: string[];
      identity_id?: components["schemas"]["IdentityId"];
      scopes?: components["schemas"]["Scopes"];
      metadata?: components["schemas"]["Metadata"];
      /** @constant */
      all?: true;
      /**
       * @description instead of namespace_id or external_reference_id: forget identity_id's memories in every namespace the key may write (narrowed by scopes and metadata when given)
       * @constant
       */
      all_namespaces?: true;
    } & ((unknown | unknown | unknown) & (unknown | (unknown | (unknown | unknown | unknown | unknown))));
    ForgetResult: {
      deleted: number;
      memory_ids: string[];
      /** @description per namespace: the one named, or with all_namespaces each one memories were deleted from */
      namespaces: {
        namespace_id: string;
        deleted: number;
      }[];
      /** @description the erasure receipt of this request (GET /erasures) */
      erasure_id: string;
    };
    Erasure: {
      id: string;
      /**
       * @description a forget (one namespace, or every namespace with all_namespaces), a namespace's deletion, or an integration's deletion with the memories it brought
       * @enum {string}
       */
      kind: "forget" | "namespace.delete" | "integration.delete";
      /** @description the request's namespace; null for a forget with all_namespaces */
      namespace_id: string | null;
      /** @description every namespace memories were deleted from, with counts */
      namespaces: {
        namespace_id: string;
        /** @description the namespace's name when the deletion happened */
        name: string;
        /** @description every memory deleted there, facts_deleted included */
        memories_deleted: number;
        chunks_deleted: number;
        /** @description facts a chat model derived from the memories deleted, which went with them */
        facts_deleted: number;
      }[];
      /** @description what the request asked to delete; never any memory's content */
      selector: {
        /** @description how many memory ids were listed (not the ids) */
        memory_id_count?: number;
        identity_id?: string;
        /** @description the scopes applied, the key's included */
        scopes?: {
          [key: string]: string;
        };
        metadata?: {
          [key: string]: unknown;
        };
        /** @constant */
        all?: true;
        /** @constant */
        all_namespaces?: true;
        namespaces_searched?: number;
        /**
         * @description the namespace itself was deleted
         * @constant
         */
        whole_namespace?: true;
        /** @description the integration connection deleted with its memories */
        connection_id?: string;
      };
      /** @description every memory deleted, facts_deleted included */
      memories_deleted: number;
      chunks_deleted: number;
      /** @description facts a chat model derived from the memories deleted, which went with them */
      facts_deleted: number;
      /** @description who asked */
      actor: {
        /** @enum {string} */
        kind: "api_key" | "user" | "integration";
        id: string | null;
        /** @description the key's name or the user's email at the time */
        name: string | null;
      };
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
    };
    PatchMemoryBody: {
      /** @description the new text: chunked and embedded again */
      content?: string;
      /** @description replaces the metadata whole */
      metadata?: components["schemas"]["Metadata"];
      /** @description replaces the scopes whole; a key with scopes keeps its own pairs */
      scopes?: components["schemas"]["Scopes"];
      /** @description null clears it */
      identity_id?: components["schemas"]["IdentityId"] | null;
      /** @description when it happened (event time) */
      occurred_at?: components["schemas"]["Instant"];
      /** @description a new expiry in the future, or null to remove it */
      expires_at?: components["schemas"]["Instant"] | null;
      /** @description expires this many seconds from now (instead of expires_at) */
      ttl_seconds?: number;
      /** @description since when what it states holds */
      valid_at?: components["schemas"]["Instant"];
      /** @description when it stopped holding; null makes it hold again (undoes a supersession, an inferred one too) */
      invalid_at?: components["schemas"]["Instant"] | null;
      /** @description null clears it */
      fact_key?: string | null;
    };
    /** @description page counts from 1 on the first page (no cursor) and grows by one with each nextCursor followed; total and totalPages count what the filters match now */
    CursorPagination: {
      page: number;
      pageSize: number;
      total: number;
      totalPages: number;
      /** @description pass it as `cursor` for the next page; null on the last page */
      nextCursor: string | null;
    };
    IdentityProfile: {
      identity_id: string;
      namespace_id: string;
      /** @description the time the profile holds at */
      as_of: string;
      /** @description what holds now, one per slot (a fact_key, or statements of which one replaced another), newest first */
      facts: {
        memory_id: string;
        content: string;
        /** @description the slot's name; null for a slot found by inference */
        fact_key: string | null;
        /** @description its valid_at: since when it holds */
        since: string;
        /** @description the memories of the slot it replaced */
        supersedes: string[];
      }[];
      /** @description its 10 most recent memories */
      recent: {
        memory_id: string;
        content: string;
        /** @description ISO 8601 UTC timestamp with milliseconds */
        occurred_at: string;
      }[];
      /** @description the 10 entities its memories mention most */
      entities: components["schemas"]["Entity"][];
      /** @description the timeline of what replaced what, newest first (at most 50) */
      changes: {
        /** @description when the replaced memory stopped holding */
        at: string;
        replaced: {
          memory_id: string;
          content: string;
        };
        by: {
          memory_id: string;
          content: string;
        };
        supersession: {
          /**
           * @description fact_key: a newer memory of its slot; named: a memory's supersedes; inferred: found offline to restate the same slot (recall demotes it, not hides it); model: a chat model's decision; caller: PATCH
           * @enum {string}
           */
          kind: "fact_key" | "named" | "inferred" | "model" | "caller";
          /** @description inferred: how alike the two statements are, 0 to 1 */
          similarity?: number;
          /** @description inferred: what the inference weighed */
          basis?: string;
        } | null;
      }[];
    };
    Entity: {
      id: string;
      /**
       * @description what the entity is
       * @enum {string}
       */
      kind: "person" | "organization" | "place" | "work" | "event" | "date" | "other";
      /** @description as first written; a date as the day, month, season or year it resolves to */
      name: string;
      namespace_id: string;
      /** @description other forms merged into it, normalized ("mel" for "Melanie") */
      aliases: string[];
      /** @description memories the caller may see that mention it */
      memory_count: number;
      /** @description how many times those memories mention it */
      mention_count: number;
      /** @description the earliest event time (occurred_at) of those memories */
      first_mentioned_at: string;
      /** @description the latest event time (occurred_at) of those memories */
      last_mentioned_at: string;
    };
    Document: {
      id: string;
      namespace_id: string;
      /**
       * @description queued, then processing; ready once its passages are memories, failed with `error` otherwise
       * @enum {string}
       */
      status: "queued" | "processing" | "ready" | "failed";
      /** @description as given, or the file's own title once read */
      title: string | null;
      /** @description the type it is read as (sniffed from its bytes); null for a URL not fetched yet */
      content_type: string | null;
      /** @description the URL it was fetched from */
      source_url: string | null;
      filename: string | null;
      /** @description of the original; null for a URL not fetched yet */
      size_bytes: number | null;
      /** @description a PDF's pages (1 for an image); null for formats without pages */
      pages: number | null;
      /** @description the passages stored as memories, each with its page and section */
      chunk_count: number;
      /** @description why processing failed, in a sentence */
      error: string | null;
      identity_id: string | null;
      scopes: {
        [key: string]: string;
      };
      metadata: {
        [key: string]: unknown;
      };
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      updated_at: string;
      processed_at: string | null;
    };
    DocumentText: {
      id: string;
      pages: number | null;
      /** @description the extracted text in reading order, with page and heading path */
      blocks: {
        page: number | null;
        section: string[];
        text: string;
      }[];
    };
    EntityDetail: {
      id: string;
      /**
       * @description what the entity is
       * @enum {string}
       */
      kind: "person" | "organization" | "place" | "work" | "event" | "date" | "other";
      /** @description as first written; a date as the day, month, season or year it resolves to */
      name: string;
      namespace_id: string;
      /** @description other forms merged into it, normalized ("mel" for "Melanie") */
      aliases: string[];
      /** @description memories the caller may see that mention it */
      memory_count: number;
      /** @description how many times those memories mention it */
      mention_count: number;
      /** @description the earliest event time (occurred_at) of those memories */
      first_mentioned_at: string;
      /** @description the latest event time (occurred_at) of those memories */
      last_mentioned_at: string;
      /** @description the entities mentioned in the same memories, most shared first (at most 20) */
      co_occurring: {
        entity: components["schemas"]["EntityRef"];
        /** @description memories the caller may see that mention both */
        shared_memories: number;
      }[];
    };
    IdentityEntities: {
      identity_id: string;
      /** @description the identity's memories the caller may see */
      memory_count: number;
      /** @description the entities those memories mention, by how many of them mention each (memory_count), then mentions; counts and first/last mention are over the identity's memories only */
      entities: components["schemas"]["Entity"][];
    };
    Provider: {
      id: components["schemas"]["ProviderId"];
      name: string;
      syncs: string;
      scopes: string[];
      /** @description whether connections can start: an OAuth client is set */
      configured: boolean;
      configured_by: ("organization" | "deployment") | null;
    };
    /** @enum {string} */
    ProviderId: "github" | "notion" | "google_drive" | "slack";
    CreateConnectionBody: (unknown | unknown) &
      (
        | {
            /** @constant */
            provider: "github";
            namespace_id?: string;
            external_reference_id?: string;
            /** @description default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console */
            redirect_uri?: string & (unknown & unknown);
            /** @description `{repositories?: ["owner/name", …]}`: absent, every repository the token can read */
            options?: {
              repositories?: string[];
            };
          }
        | {
            /** @constant */
            provider: "notion";
            namespace_id?: string;
            external_reference_id?: string;
            /** @description default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console */
            redirect_uri?: string & (unknown & unknown);
            /** @description `{}`: Notion syncs the pages and databases the person shares with the integration at consent */
            options?: Record<string, never>;
          }
        | {
            /** @constant */
            provider: "google_drive";
            namespace_id?: string;
            external_reference_id?: string;
            /** @description default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console */
            redirect_uri?: string & (unknown & unknown);
            /** @description `{folder_id?}`: absent, every Google Doc, text and Markdown file the token can see */
            options?: {
              folder_id?: string;
            };
          }
        | {
            /** @constant */
            provider: "slack";
            namespace_id?: string;
            external_reference_id?: string;
            /** @description default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console */
            redirect_uri?: string & (unknown & unknown);
            /** @description `{channels?: ["C0123ABCD", …]}`: absent, every channel the app is a member of */
            options?: {
              channels?: string[];
            };
          }
      );
    CreatedConnection: {
      connection: components["schemas"]["Connection"];
      /**
       * Format: uri
       * @description send the person here: the provider's consent page
       */
      authorization_url: string;
    };
    Connection: {
      id: string;
      provider: components["schemas"]["ProviderId"];
      namespace_id: string;
      /** @enum {string} */
      status: "pending" | "active" | "syncing" | "error" | "revoked";
      options: {
        [key: string]: unknown;
      };
      /** @description the account connected: Slack team, Notion workspace */
      account: string | null;
      last_sync_at: string | null;
      /** @description documents of the provider stored as memories now */
      documents_synced: number;
      /** @description what went wrong last, for a person to act on */
      last_error: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      updated_at: string;
    };
    CompleteConnectionBody: {
      code: string;
      state: string;
    };
    ReconnectConnectionBody: {
      /** @description default: this gateway's GET /api/v1/integrations/callback, which completes and opens the console */
      redirect_uri?: string & (unknown & unknown);
    };
    DeletedConnection: {
      /** @constant */
      deleted: true;
      memories_deleted: number;
      memories_kept: number;
      /** @description whether the provider confirmed the revocation */
      token_revoked: boolean;
    };
    EventFeed: {
      events: components["schemas"]["Event"][];
      /** @description pass it as `after` to read on from the last event here (also when there was none: poll with it) */
      next_cursor: string;
      /** @description more events are there now: read again at once */
      has_more: boolean;
    };
    Event: {
      /** @description the same id in the feed and as a webhook's `webhook-id`: deduplicate on it */
      id: string;
      /** @enum {string} */
      type:
        | "memory.created"
        | "memory.updated"
        | "memory.deleted"
        | "memory.expired"
        | "memory.superseded"
        | "memory.inference.completed"
        | "memory.inference.failed"
        | "conversation.appended"
        | "namespace.created"
        | "namespace.updated"
        | "namespace.deleted"
        | "erasure.completed"
        | "import.completed"
        | "import.failed"
        | "integration.sync.completed"
        | "integration.sync.failed"
        | "connection.revoked"
        | "api_key.created"
        | "api_key.revoked";
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description null for the organization's own events (API keys, connections) */
      namespace_id: string | null;
      identity_id: string | null;
      /** @description the memory's scopes, for a memory's events */
      scopes: {
        [key: string]: string;
      };
      /** @description what the change is about: ids, counts, a deletion's reason; never a memory's content */
      data: {
        [key: string]: unknown;
      };
      /** @description with include_content, for a memory's events: its content now (null once it is deleted); absent otherwise */
      content?: string | null;
    };
    WebhookEndpoint: {
      id: string;
      url: string;
      description: string;
      /** @description empty: every type */
      event_types: (
        | "memory.created"
        | "memory.updated"
        | "memory.deleted"
        | "memory.expired"
        | "memory.superseded"
        | "memory.inference.completed"
        | "memory.inference.failed"
        | "conversation.appended"
        | "namespace.created"
        | "namespace.updated"
        | "namespace.deleted"
        | "erasure.completed"
        | "import.completed"
        | "import.failed"
        | "integration.sync.completed"
        | "integration.sync.failed"
        | "connection.revoked"
        | "api_key.created"
        | "api_key.revoked"
      )[];
      /** @description empty: every namespace the endpoint's creator may read */
      namespace_ids: string[];
      /** @description a memory's events carry its content */
      include_content: boolean;
      enabled: boolean;
      /** @description why it was disabled (by a person, or after failing for days) */
      disabled_reason: string | null;
      disabled_at: string | null;
      /**
       * @description closed: deliveries go out; open: its recent attempts got no answer (timed out, no connection), so its deliveries wait without a request until circuit_open_until; half_open: the wait is over and the next delivery is sent alone, as a trial that closes the circuit once answered
       * @enum {string}
       */
      circuit_state: "closed" | "open" | "half_open";
      /** @description while the circuit is open: when its trial request goes */
      circuit_open_until: string | null;
      /** @description attempts in a row that got no answer (timed out, or no connection); any HTTP answer resets it */
      consecutive_failures: number;
      /** @description the start of the signing secret, to tell secrets apart */
      secret_hint: string;
      /** @description after a rotation: until then both secrets sign */
      previous_secret_expires_at: string | null;
      /** @description made with this key: receives only what the key may read (its namespaces, its scopes) */
      created_by_api_key_id: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      updated_at: string;
    };
    CreatedWebhookEndpoint: {
      endpoint: components["schemas"]["WebhookEndpoint"];
      /** @description the signing secret (`whsec_…`), shown this once: verify deliveries with it */
      secret: string;
    };
    WebhookTestResult: {
      /** @description the endpoint answered 2xx */
      delivered: boolean;
      response_status: number | null;
      latency_ms: number;
      error: string | null;
    };
    WebhookDelivery: {
      id: string;
      endpoint_id: string;
      /** @description the message's `webhook-id` */
      event_id: string;
      /** @enum {string} */
      event_type:
        | "memory.created"
        | "memory.updated"
        | "memory.deleted"
        | "memory.expired"
        | "memory.superseded"
        | "memory.inference.completed"
        | "memory.inference.failed"
        | "conversation.appended"
        | "namespace.created"
        | "namespace.updated"
        | "namespace.deleted"
        | "erasure.completed"
        | "import.completed"
        | "import.failed"
        | "integration.sync.completed"
        | "integration.sync.failed"
        | "connection.revoked"
        | "api_key.created"
        | "api_key.revoked";
      /**
       * @description pending (not yet, or being retried), delivered, or failed for good
       * @enum {string}
       */
      status: "pending" | "delivered" | "failed";
      attempts: number;
      /** @description the HTTP status of the last attempt's answer */
      response_status: number | null;
      /** @description how long the last attempt took */
      latency_ms: number | null;
      last_error: string | null;
      /** @description for a pending delivery: when it is tried next */
      next_attempt_at: string | null;
      delivered_at: string | null;
      /** @description ISO 8601 UTC timestamp with milliseconds */
      created_at: string;
      /** @description the message's body as it is sent (its content as of now) */
      payload: {
        /** @enum {string} */
        type:
          | "memory.created"
          | "memory.updated"
          | "memory.deleted"
          | "memory.expired"
          | "memory.superseded"
          | "memory.inference.completed"
          | "memory.inference.failed"
          | "conversation.appended"
          | "namespace.created"
          | "namespace.updated"
          | "namespace.deleted"
          | "erasure.completed"
          | "import.completed"
          | "import.failed"
          | "integration.sync.completed"
          | "integration.sync.failed"
          | "connection.revoked"
          | "api_key.created"
          | "api_key.revoked";
        /** @description ISO 8601 UTC timestamp with milliseconds */
        timestamp: string;
        data: components["schemas"]["Event"];
      };
    };
    /** @description A JSON-RPC 2.0 request, notification, response or error (MCP) */
    JsonRpcMessage: {
      /** @constant */
      jsonrpc: "2.0";
      id?: string | number | null;
      method?: string;
      params?: Record<string, never>;
      result?: Record<string, never>;
      error?: {
        code: number;
        message: string;
        data?: unknown;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ready */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: {
              /** @description "ok" */
              status: string;
              /** @description the database in use */
              database: string;
              /** @description "ready", or "loading" while the embedding model starts */
              embeddings: string;
            } & {
              [key: string]: unknown;
            };
          };
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putHealthNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postHealthNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteHealthNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchHealthNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  openApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": Record<string, never>;
        };
      };
    };
  };
  putOpenapiJsonNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postOpenapiJsonNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteOpenapiJsonNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchOpenapiJsonNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  integrationCallback: {
    parameters: {
      query?: {
        /** @description the authorization code */
        code?: string;
        /** @description the state of POST /integrations/connections' authorization_url */
        state?: string;
        /** @description the provider's error, e.g. access_denied */
        error?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description To /{org}/integrations?connected={id}, or ?error= with what went wrong */
      303: {
        headers: {
          Location?: string;
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsCallbackNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postIntegrationsCallbackNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsCallbackNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsCallbackNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listNamespaces: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Namespace"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createNamespace: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateNamespaceBody"];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          /** @description `true` when this is the first answer to an earlier request with the same Idempotency-Key */
          "Idempotent-Replayed"?: "true";
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Namespace"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request (`details[].message` IDEMPOTENCY_CONFLICT), or its first request is still running (IDEMPOTENCY_IN_PROGRESS: retry after `Retry-After` seconds), or the memory it stored has been deleted since (IDEMPOTENCY_ANSWER_WITHDRAWN: not done again) */
      409: {
        headers: {
          /** @description With IDEMPOTENCY_IN_PROGRESS: seconds to wait */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteNamespacesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchNamespacesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getNamespace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Namespace"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postNamespacesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteNamespace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Deleted"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateNamespace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["UpdateNamespaceBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Namespace"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  exportNamespace: {
    parameters: {
      query?: {
        include_vectors?: "true" | "false";
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /** @description each line is one of these */
          "application/x-ndjson": components["schemas"]["ExportLine"];
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesIdExportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postNamespacesIdExportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteNamespacesIdExportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchNamespacesIdExportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getNamespacesIdImportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesIdImportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  importNamespace: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    /** @description NDJSON: one JSON value per line, each as the schema says */
    requestBody: {
      content: {
        "application/x-ndjson":
          | {
              /** @constant */
              type: "header";
              /** @constant */
              format: "memory-gateway-export";
              /** @constant */
              version: 1;
              exported_at: components["schemas"]["Instant"];
              /** @description the namespace exported (import writes into the namespace of its path, whatever this says) */
              namespace: {
                id: string;
                name: string;
                description: string | null;
                external_reference_id: string | null;
              };
              /** @description the embedding model of the exporting server */
              embedding_model: string;
              /** @description whether memory lines carry their chunks' vectors */
              vectors: boolean;
              /** @description the scopes the export was limited to (the exporting key's; {} for every memory) */
              scopes: {
                [key: string]: string;
              };
            }
          | {
              /** @constant */
              type: "document";
              /** @description the document's id where it was exported (import mints a new one) */
              id: string;
              title: string | null;
              /** @enum {string} */
              content_type:
                | "application/pdf"
                | "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
                | "text/html"
                | "text/markdown"
                | "text/plain"
                | "image/png"
                | "image/jpeg";
              source_url: (string & (unknown & unknown)) | null;
              filename: string | null;
              metadata: components["schemas"]["Metadata"];
              scopes: components["schemas"]["Scopes"];
              identity_id: components["schemas"]["IdentityId"] | null;
              created_at: components["schemas"]["Instant"];
              /** Format: base64 */
              original: string;
            }
          | {
              /** @constant */
              type: "memory";
              /** @description the memory's id where it was exported (import mints new ids) */
              id: string;
              content: string;
              metadata: components["schemas"]["Metadata"];
              scopes: components["schemas"]["Scopes"];
              identity_id: components["schemas"]["IdentityId"] | null;
              session_id: components["schemas"]["SessionId"] | null;
              position: number | null;
              role: string | null;
              occurred_at: components["schemas"]["Instant"];
              created_at: components["schemas"]["Instant"];
              updated_at: components["schemas"]["Instant"];
              expires_at: components["schemas"]["Instant"] | null;
              /** @description since when it holds; default: its occurred_at */
              valid_at?: components["schemas"]["Instant"];
              invalid_at?: components["schemas"]["Instant"] | null;
              superseded_by?: string | null;
              supersession?: {
                /**
                 * @description fact_key: a newer memory of its slot; named: a memory's supersedes; inferred: found offline to restate the same slot (recall demotes it, not hides it); model: a chat model's decision; caller: PATCH
                 * @enum {string}
                 */
                kind: "fact_key" | "named" | "inferred" | "model" | "caller";
                /** @description inferred: how alike the two statements are, 0 to 1 */
                similarity?: number;
                /** @description inferred: what the inference weighed */
                basis?: string;
              } | null;
              fact_key?: string | null;
              /** @enum {string} */
              kind?: "memory" | "fact";
              /** @description a fact's sources, by their ids in the same file (those not in it are dropped) */
              derived_from?: string[];
              version: number;
              /** @description every version, newest first: the current one (its author and changed fields) then the earlier ones; for a key with scopes, only versions within them */
              history: {
                version: number;
                content: string;
                metadata: components["schemas"]["Metadata"];
                scopes: {
                  [key: string]: string;
                };
                identity_id: components["schemas"]["IdentityId"] | null;
                /** Format: date-time */
                occurred_at: string;
                expires_at: string | null;
                changed_fields: ("content" | "metadata" | "scopes" | "identity_id" | "occurred_at" | "expires_at")[];
                changed_by: {
                  /** @enum {string} */
                  kind: "api_key" | "user" | "integration";
                  id: string | null;
                  name: string | null;
                } | null;
                /** Format: date-time */
                changed_at: string;
              }[];
              /** @description the model of the chunks' vectors (null: mixed, re-embedded) */
              embedding_model: string | null;
              /** @description with include_vectors: each chunk's text and vector, reused on import by the same model */
              chunks?: {
                position: number;
                content: string;
                vector: number[];
              }[];
            }
          | {
              content: string;
              metadata?: components["schemas"]["Metadata"];
              scopes?: components["schemas"]["Scopes"];
              identity_id?: components["schemas"]["IdentityId"] | null;
              /** @description when it happened; default: the time of the import */
              occurred_at?: components["schemas"]["Instant"];
              /** @description a line whose expires_at has passed is skipped */
              expires_at?: components["schemas"]["Instant"] | null;
              /** @description expires this many seconds from now (instead of expires_at) */
              ttl_seconds?: number;
              /** @description a conversation turn: appended to this session */
              session_id?: components["schemas"]["SessionId"] | null;
              /** @description who said the turn (with session_id) */
              role?: string | null;
            };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["ImportResult"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: more than 268435456 bytes, 100001 lines, or a line of more than 75497472 characters */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteNamespacesIdImportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchNamespacesIdImportNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listGrants: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Grant"][];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesIdGrantsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createGrant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateGrantBody"];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Grant"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteNamespacesIdGrantsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchNamespacesIdGrantsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getNamespacesIdGrantsGrantIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        grantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putNamespacesIdGrantsGrantIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        grantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postNamespacesIdGrantsGrantIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        grantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteGrant: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        grantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Deleted"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchNamespacesIdGrantsGrantIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        grantId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getRememberNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putRememberNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  remember: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RememberBody"];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          /** @description `true` when this is the first answer to an earlier request with the same Idempotency-Key */
          "Idempotent-Replayed"?: "true";
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Memory"] | components["schemas"]["Memory"][];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request (`details[].message` IDEMPOTENCY_CONFLICT), or its first request is still running (IDEMPOTENCY_IN_PROGRESS: retry after `Retry-After` seconds), or the memory it stored has been deleted since (IDEMPOTENCY_ANSWER_WITHDRAWN: not done again) */
      409: {
        headers: {
          /** @description With IDEMPOTENCY_IN_PROGRESS: seconds to wait */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteRememberNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchRememberNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getRecallNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putRecallNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  recall: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["RecallBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Match"][];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteRecallNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchRecallNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getAskNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putAskNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  ask: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["AskBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["AskResult"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteAskNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchAskNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getForgetNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putForgetNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  forget: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ForgetBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description `true` when this is the first answer to an earlier request with the same Idempotency-Key */
          "Idempotent-Replayed"?: "true";
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["ForgetResult"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request (`details[].message` IDEMPOTENCY_CONFLICT), or its first request is still running (IDEMPOTENCY_IN_PROGRESS: retry after `Retry-After` seconds), or the memory it stored has been deleted since (IDEMPOTENCY_ANSWER_WITHDRAWN: not done again) */
      409: {
        headers: {
          /** @description With IDEMPOTENCY_IN_PROGRESS: seconds to wait */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteForgetNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchForgetNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listErasures: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
        identity_id?: string;
        namespace_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Erasure"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putErasuresNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postErasuresNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteErasuresNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchErasuresNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getMemory: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Memory"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putMemoriesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postMemoriesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteMemoriesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateMemory: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key. */
        "Idempotency-Key"?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["PatchMemoryBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          /** @description `true` when this is the first answer to an earlier request with the same Idempotency-Key */
          "Idempotent-Replayed"?: "true";
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Memory"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request (`details[].message` IDEMPOTENCY_CONFLICT), or its first request is still running (IDEMPOTENCY_IN_PROGRESS: retry after `Retry-After` seconds), or the memory it stored has been deleted since (IDEMPOTENCY_ANSWER_WITHDRAWN: not done again) */
      409: {
        headers: {
          /** @description With IDEMPOTENCY_IN_PROGRESS: seconds to wait */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  memoryHistory: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["MemoryVersion"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putMemoriesIdHistoryNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postMemoriesIdHistoryNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteMemoriesIdHistoryNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchMemoriesIdHistoryNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listMemories: {
    parameters: {
      query?: {
        namespace_id?: string;
        external_reference_id?: string;
        identity_id?: components["schemas"]["IdentityId"];
        session_id?: components["schemas"]["SessionId"];
        scope?: string[];
        metadata?: string[];
        cursor?: string;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Memory"][];
            pagination: components["schemas"]["CursorPagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putMemoriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postMemoriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteMemoriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchMemoriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  identityProfile: {
    parameters: {
      query: {
        namespace_id: string;
        as_of?: components["schemas"]["Instant"];
      };
      header?: never;
      path: {
        id: components["schemas"]["IdentityId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["IdentityProfile"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIdentitiesIdProfileNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postIdentitiesIdProfileNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIdentitiesIdProfileNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIdentitiesIdProfileNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listDocuments: {
    parameters: {
      query: {
        page?: number;
        page_size?: number;
        namespace_id: string;
        status?: "queued" | "processing" | "ready" | "failed";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Document"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putDocumentsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  addDocument: {
    parameters: {
      query?: never;
      header?: {
        /** @description Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key. */
        "Idempotency-Key"?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          namespace_id?: string;
          external_reference_id?: string;
          /** @description an https URL to fetch (public addresses only; redirects are followed and checked) */
          url?: string & (unknown & unknown);
          /** @description the document itself: text, or base64 with `content_encoding: base64` for binary formats */
          content?: string;
          /** @description with `content`: its type, e.g. text/markdown, text/html, application/pdf */
          content_type?: string;
          /**
           * @description with `content`: utf8 (the default) or base64
           * @enum {string}
           */
          content_encoding?: "utf8" | "base64";
          /** @description shown and cited; the file's own title otherwise */
          title?: string;
          filename?: string;
          /** @description copied onto every passage's memory */
          metadata?: components["schemas"]["Metadata"];
          scopes?: components["schemas"]["Scopes"];
          identity_id?: components["schemas"]["IdentityId"];
        } & ((unknown | unknown) & (unknown | unknown));
        "multipart/form-data": {
          namespace_id?: string;
          external_reference_id?: string;
          /**
           * Format: binary
           * @description the file
           */
          file: string;
          /** @description shown and cited; the file's own title otherwise */
          title?: string;
          filename?: string;
          /** @description as JSON text */
          metadata?: string;
          /** @description as JSON text */
          scopes?: string;
          identity_id?: components["schemas"]["IdentityId"];
        } & (unknown | unknown);
      };
    };
    responses: {
      /** @description Success */
      202: {
        headers: {
          /** @description `true` when this is the first answer to an earlier request with the same Idempotency-Key */
          "Idempotent-Replayed"?: "true";
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Document"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request (`details[].message` IDEMPOTENCY_CONFLICT), or its first request is still running (IDEMPOTENCY_IN_PROGRESS: retry after `Retry-After` seconds), or the memory it stored has been deleted since (IDEMPOTENCY_ANSWER_WITHDRAWN: not done again) */
      409: {
        headers: {
          /** @description With IDEMPOTENCY_IN_PROGRESS: seconds to wait */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNSUPPORTED_MEDIA_TYPE */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteDocumentsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchDocumentsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Document"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putDocumentsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postDocumentsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: {
              id: string;
              /** @constant */
              deleted: true;
              memories_deleted: number;
            };
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchDocumentsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  documentText: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["DocumentText"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putDocumentsIdTextNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postDocumentsIdTextNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteDocumentsIdTextNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchDocumentsIdTextNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  documentContent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/octet-stream": string;
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putDocumentsIdContentNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postDocumentsIdContentNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteDocumentsIdContentNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchDocumentsIdContentNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getDocumentsIdRefreshNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putDocumentsIdRefreshNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  refreshDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Document"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteDocumentsIdRefreshNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchDocumentsIdRefreshNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listEntities: {
    parameters: {
      query?: {
        namespace_id?: string;
        external_reference_id?: string;
        kind?: "person" | "organization" | "place" | "work" | "event" | "date" | "other";
        q?: string;
        cursor?: string;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Entity"][];
            pagination: components["schemas"]["CursorPagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getEntity: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["EntityDetail"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putEntitiesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postEntitiesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteEntitiesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchEntitiesIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  identityEntities: {
    parameters: {
      query?: {
        namespace_id?: string;
        limit?: number;
      };
      header?: never;
      path: {
        id: components["schemas"]["IdentityId"];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["IdentityEntities"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIdentitiesIdEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postIdentitiesIdEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIdentitiesIdEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIdentitiesIdEntitiesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listIntegrationProviders: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Provider"][];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsProvidersNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postIntegrationsProvidersNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsProvidersNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsProvidersNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listIntegrationConnections: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
        namespace_id?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Connection"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsConnectionsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createIntegrationConnection: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CreateConnectionBody"];
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedConnection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsConnectionsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsConnectionsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getIntegrationsConnectionsIdCompleteNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsConnectionsIdCompleteNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  completeIntegrationConnection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["CompleteConnectionBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Connection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UPSTREAM_ERROR: the embedding or chat model provider failed */
      502: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsConnectionsIdCompleteNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsConnectionsIdCompleteNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getIntegrationsConnectionsIdReconnectNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsConnectionsIdReconnectNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  reconnectIntegrationConnection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["ReconnectConnectionBody"];
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedConnection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsConnectionsIdReconnectNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsConnectionsIdReconnectNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getIntegrationConnection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Connection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsConnectionsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postIntegrationsConnectionsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationConnection: {
    parameters: {
      query?: {
        keep_memories?: "true" | "false";
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["DeletedConnection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsConnectionsIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getIntegrationsConnectionsIdSyncNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putIntegrationsConnectionsIdSyncNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  syncIntegrationConnection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["Connection"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description CONFLICT: a resource with these values already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteIntegrationsConnectionsIdSyncNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchIntegrationsConnectionsIdSyncNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        namespace_id?: string;
        type?: string;
        after?: string;
        limit?: number;
        include_content?: "true" | "false";
        latest?: "true" | "false";
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["EventFeed"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putEventsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postEventsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteEventsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchEventsNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookEndpoint"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  createWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description https only; private, loopback and link-local addresses are refused */
          url: string & (unknown & unknown);
          /** @description what the endpoint is for, for people */
          description?: string;
          /** @description the types to receive; empty or absent: every type */
          event_types?: (
            | "memory.created"
            | "memory.updated"
            | "memory.deleted"
            | "memory.expired"
            | "memory.superseded"
            | "memory.inference.completed"
            | "memory.inference.failed"
            | "conversation.appended"
            | "namespace.created"
            | "namespace.updated"
            | "namespace.deleted"
            | "erasure.completed"
            | "import.completed"
            | "import.failed"
            | "integration.sync.completed"
            | "integration.sync.failed"
            | "connection.revoked"
            | "api_key.created"
            | "api_key.revoked"
          )[];
          /** @description only these namespaces' events; empty or absent: every namespace (and the organization's own events) */
          namespace_ids?: string[];
          include_content?: boolean;
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedWebhookEndpoint"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhooksNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchWebhooksNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookEndpoint"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postWebhooksIdNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: {
              id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description https only; private, loopback and link-local addresses are refused */
          url?: string & (unknown & unknown);
          /** @description what the endpoint is for, for people */
          description?: string;
          /** @description the types to receive; empty or absent: every type */
          event_types?: (
            | "memory.created"
            | "memory.updated"
            | "memory.deleted"
            | "memory.expired"
            | "memory.superseded"
            | "memory.inference.completed"
            | "memory.inference.failed"
            | "conversation.appended"
            | "namespace.created"
            | "namespace.updated"
            | "namespace.deleted"
            | "erasure.completed"
            | "import.completed"
            | "import.failed"
            | "integration.sync.completed"
            | "integration.sync.failed"
            | "connection.revoked"
            | "api_key.created"
            | "api_key.revoked"
          )[];
          /** @description only these namespaces' events; empty or absent: every namespace (and the organization's own events) */
          namespace_ids?: string[];
          include_content?: boolean;
          enabled?: boolean;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookEndpoint"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getWebhooksIdRotateSecretNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksIdRotateSecretNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  rotateWebhookSecret: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description how long the old secret signs too (default 24): receivers switch without missing a delivery */
          overlap_hours?: number;
        };
      };
    };
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["CreatedWebhookEndpoint"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description PAYLOAD_TOO_LARGE: the body is larger than 5242880 bytes */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhooksIdRotateSecretNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchWebhooksIdRotateSecretNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getWebhooksIdTestNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksIdTestNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookTestResult"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhooksIdTestNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchWebhooksIdTestNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        page?: number;
        page_size?: number;
        status?: "pending" | "delivered" | "failed";
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: components["schemas"]["WebhookDelivery"][];
            pagination: components["schemas"]["Pagination"];
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksIdDeliveriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  postWebhooksIdDeliveriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhooksIdDeliveriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchWebhooksIdDeliveriesNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  redeliverWebhookDelivery: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Success */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": {
            /** @constant */
            success: true;
            data: {
              /** @description the delivery, pending again and due now */
              id: string;
              /** @constant */
              queued: true;
            };
          };
        };
      };
      /** @description BAD_REQUEST: invalid parameters or body (`error.details` names each field) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description FORBIDDEN: the key lacks the permission, or the request contradicts its scopes */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed) */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  deleteWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchWebhooksIdDeliveriesDeliveryIdRedeliverNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        deliveryId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  getMcpNamespace_idNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  putMcpNamespace_idNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  mcp: {
    parameters: {
      query?: never;
      header: {
        /** @description Must list both application/json and text/event-stream (MCP Streamable HTTP) */
        Accept: string;
        /** @description The identity of tool calls that do not pass identity_id */
        "X-Identity-Id"?: string;
      };
      path: {
        namespace_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        "application/json": components["schemas"]["JsonRpcMessage"];
      };
    };
    responses: {
      /** @description The JSON-RPC reply (a tool's failure is a result with isError: true) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"];
        };
      };
      /** @description Accepted: the message was a notification or a response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A malformed path id (error envelope), or malformed JSON, a malformed JSON-RPC message or a batch (JSON-RPC error: one message per POST) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"] | components["schemas"]["Error"];
        };
      };
      /** @description UNAUTHORIZED: no API key, or an invalid, revoked or expired one */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description NOT_FOUND: no such resource visible to the key */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Accept does not list application/json and text/event-stream */
      406: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"] | components["schemas"]["Error"];
        };
      };
      /** @description Content-Type is not application/json */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"];
        };
      };
      /** @description RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          "Retry-After"?: number;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description INTERNAL_SERVER_ERROR */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["JsonRpcMessage"] | components["schemas"]["Error"];
        };
      };
    };
  };
  deleteMcpNamespace_idNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  patchMcpNamespace_idNotAllowed: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        namespace_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`) */
      405: {
        headers: {
          /** @description The methods this path answers */
          Allow?: string;
          [name: string]: unknown;
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
}
