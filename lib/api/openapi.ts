import { z } from "zod";
import { publicUrl } from "@/lib/config";
import { ErrorBodySchema } from "@/lib/http/errors";
import {
  IDEMPOTENCY_ANSWER_WITHDRAWN,
  IDEMPOTENCY_CONFLICT,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_IN_PROGRESS,
  REPLAYED_HEADER,
} from "@/lib/http/idempotency";
import type { UploadRules } from "@/lib/http/form-body";
import type { Operation } from "@/lib/operations/operation";
import { TARGET_RULE } from "@/lib/validation/target";
import { NDJSON } from "@/lib/http/ndjson";
import { IMPORT_LIMITS } from "@/lib/portability/export-format";
import { McpPathParams, operations } from "@/lib/operations/catalogue";
import {
  type Components,
  errorContent,
  errorResponses,
  jsonSchema,
  namedComponents,
  parametersOf,
  successContent,
} from "./openapi-schemas";

/** The methods a route answers: every other one gets 405 with `Allow` (lib/http/methods.ts). */
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** The header of the operations marked `idempotent` (lib/http/idempotency.ts, docs/api.md "Idempotent requests"). */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: "header",
  required: false,
  description:
    "Your own id for this request (a UUID, say): a retry with the same key and the same request within 24 hours " +
    "gets the first 2xx answer (with `Idempotent-Replayed: true`) and the work is not done again. Per API key.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
};

const REPLAYED_HEADERS = {
  [REPLAYED_HEADER]: {
    description: "`true` when this is the first answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

const IDEMPOTENT_CONFLICT_RESPONSE = {
  description:
    "CONFLICT: a resource with these values already exists; or the Idempotency-Key was used for another request " +
    `(\`details[].message\` ${IDEMPOTENCY_CONFLICT}), or its first request is still running ` +
    `(${IDEMPOTENCY_IN_PROGRESS}: retry after \`Retry-After\` seconds), or the memory it stored has been ` +
    `deleted since (${IDEMPOTENCY_ANSWER_WITHDRAWN}: not done again)`,
  headers: {
    "Retry-After": { description: "With IDEMPOTENCY_IN_PROGRESS: seconds to wait", schema: { type: "integer" } },
  },
  content: errorContent,
};

/** A body read as a stream of JSON lines (`ndjson.request` of lib/operations/operation.ts). */
function ndjsonRequestBody(line: z.ZodType, components: Components) {
  return {
    required: true,
    description: "NDJSON: one JSON value per line, each as the schema says",
    content: { [NDJSON]: { schema: jsonSchema(line, "input", components) } },
  };
}

const NDJSON_TOO_LARGE = {
  description:
    `PAYLOAD_TOO_LARGE: more than ${IMPORT_LIMITS.bytes} bytes, ${IMPORT_LIMITS.lines} lines, ` +
    `or a line of more than ${IMPORT_LIMITS.lineChars} characters`,
  content: errorContent,
};

/**
 * An operation's `summary`, which references list it by, is a title made of its name (`createNamespace` →
 * "Create namespace", as the SDKs name the method), and its sentence is its `description`: the sentences made
 * a sidebar of long lines.
 */
function named(operationId: string, sentence: string, title?: string) {
  const words = operationId.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return { summary: title ?? words[0].toUpperCase() + words.slice(1), description: `${sentence}.` };
}

function operationOf(name: string, op: Operation, components: Components) {
  const ep = op.http;
  const keyAuthenticated = op.permission !== undefined;
  const errorStatuses = [
    400,
    ...(keyAuthenticated ? [401, 403, 429] : []),
    ...(op.body || op.ndjson?.request ? [413] : []),
    ...(ep.errors ?? []),
    ...(ep.idempotent ? [409] : []),
    500,
  ];
  return {
    operationId: name,
    ...named(name, ep.summary),
    ...(op.permission && { description: `${ep.summary}. Requires the ${op.permission} permission.` }),
    tags: [ep.tag],
    parameters: [...parametersOf(op, components), ...(ep.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : [])],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: jsonBodySchema(op, components) },
              ...(op.upload ? { "multipart/form-data": { schema: formSchema(op.body, op.upload, components) } } : {}),
            },
          },
        }
      : {}),
    ...(op.ndjson?.request ? { requestBody: ndjsonRequestBody(op.ndjson.request, components) } : {}),
    responses: {
      [String(op.successStatus ?? 200)]: {
        description: "Success",
        ...(ep.idempotent ? { headers: REPLAYED_HEADERS } : {}),
        content: op.download
          ? { "application/octet-stream": { schema: { type: "string", format: "binary" } } }
          : op.ndjson?.response
            ? {
                [NDJSON]: {
                  schema: jsonSchema(op.response, "output", components),
                  description: "each line is one of these",
                },
              }
            : successContent(op.paginated ? z.array(op.response) : op.response, components, op.paginated),
      },
      ...errorResponses(errorStatuses),
      ...(ep.idempotent ? { "409": IDEMPOTENT_CONFLICT_RESPONSE } : {}),
      ...(op.ndjson?.request ? { "413": NDJSON_TOO_LARGE } : {}),
    },
    ...(keyAuthenticated ? { security: [{ apiKey: [] }] } : {}),
  };
}

/** A JSON body; of an operation that takes a file, without the file (which only a multipart form carries). */
function jsonBodySchema(op: Operation, components: Components) {
  const json = jsonSchema(op.body!, "input", components) as { properties?: Record<string, object> };
  if (!op.upload || !json.properties) return json;
  const { file: _file, ...properties } = json.properties;
  return { ...json, properties };
}

/**
 * The form of an operation that takes a file (`upload`): the file a binary part, the fields that carry JSON
 * (scopes, metadata) as JSON text, the others as they are in JSON; the source fields of a JSON body left out.
 */
function formSchema(body: z.ZodType, upload: UploadRules, components: Components) {
  const json = jsonSchema(body, "input", components) as { properties?: Record<string, object>; allOf?: object[] };
  const properties = Object.fromEntries(
    Object.entries(json.properties ?? {}).flatMap(([name, property]): [string, object][] => {
      if (name === "file") return [[name, { type: "string", format: "binary", description: "the file" }]];
      if (["url", "content", "content_type", "content_encoding"].includes(name)) return [];
      if (upload.jsonFields.includes(name)) {
        return [[name, { type: "string", description: "as JSON text", contentMediaType: "application/json" }]];
      }
      return [[name, property]];
    }),
  );
  return { ...json, properties, required: ["file"], allOf: [TARGET_RULE] };
}

/** GET /health: no key; the envelope's `data` says what is ready. */
function healthOperation(components: Components) {
  const HealthSchema = z.looseObject({
    status: z.string().describe('"ok"'),
    database: z.string().describe("the database in use"),
    embeddings: z.string().describe('"ready", or "loading" while the embedding model starts'),
  });
  return {
    operationId: "health",
    ...named(
      "health",
      "Readiness: 200 once the database is open and migrated; says whether the embedding model is loaded",
    ),
    tags: ["Service"],
    parameters: [],
    responses: {
      "200": { description: "Ready", content: successContent(HealthSchema, components) },
      ...errorResponses([500, 503]),
    },
  };
}

/** GET /integrations/callback: no key; the browser's way back from a provider's consent page. */
function integrationCallbackOperation() {
  const query = (name: string, description: string) => ({ name, in: "query", schema: { type: "string" }, description });
  return {
    operationId: "integrationCallback",
    ...named(
      "integrationCallback",
      "Where providers send the browser back: completes the connection its state names, in the browser that " +
        "started it (the flow cookie set by the console, or a signed-in member who manages integrations), then " +
        "redirects to the organization's integrations page",
    ),
    tags: ["Integrations"],
    parameters: [
      query("code", "the authorization code"),
      query("state", "the state of POST /integrations/connections' authorization_url"),
      query("error", "the provider's error, e.g. access_denied"),
    ],
    responses: {
      "303": {
        description: "To /{org}/integrations?connected={id}, or ?error= with what went wrong",
        headers: { Location: { schema: { type: "string" } } },
      },
      ...errorResponses([400, 403, 500]),
    },
  };
}

function openApiOperation() {
  return {
    operationId: "openApiDocument",
    ...named(
      "openApiDocument",
      "This document: OpenAPI 3.1, generated from the schemas the API validates with",
      "OpenAPI document",
    ),
    tags: ["Service"],
    parameters: [],
    responses: {
      "200": { description: "The OpenAPI document", content: { "application/json": { schema: { type: "object" } } } },
    },
  };
}

/**
 * POST /mcp/{namespace_id}: the namespace's MCP endpoint (Streamable HTTP, stateless). Its body and
 * replies are JSON-RPC 2.0, described loosely, one message per POST (no batches: lib/mcp/http.ts); refusals
 * of the message (406, 415, malformed JSON or message, a batch) are JSON-RPC errors, the gateway's (key,
 * namespace, path id, body size) the API's error envelope.
 */
function mcpOperation(components: Components) {
  const pathParameters = parametersOf({ params: McpPathParams }, components);
  const message = { $ref: "#/components/schemas/JsonRpcMessage" };
  const jsonRpcOrError = { anyOf: [message, { $ref: "#/components/schemas/Error" }] };
  const jsonRpcError = { "application/json": { schema: message } };
  return {
    operationId: "mcp",
    ...named(
      "mcp",
      "The namespace's MCP endpoint: tools remember, recall, recall_by_entity, list_entities, ask, get_profile, " +
        "forget and add_document, run with the key's permissions and scopes",
      "MCP endpoint",
    ),
    tags: ["MCP"],
    parameters: [
      ...pathParameters,
      {
        name: "Accept",
        in: "header",
        required: true,
        description: "Must list both application/json and text/event-stream (MCP Streamable HTTP)",
        schema: { type: "string", example: "application/json, text/event-stream" },
      },
      {
        name: "X-Identity-Id",
        in: "header",
        required: false,
        description: "The identity of tool calls that do not pass identity_id",
        schema: { type: "string", minLength: 1, maxLength: 255 },
      },
    ],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          // JSON-RPC batches (arrays) are refused: MCP removed them in protocol version 2025-06-18.
          schema: message,
        },
      },
    },
    responses: {
      "200": {
        description: "The JSON-RPC reply (a tool's failure is a result with isError: true)",
        content: {
          "application/json": { schema: message },
        },
      },
      "202": { description: "Accepted: the message was a notification or a response" },
      "400": {
        description:
          "A malformed path id (error envelope), or malformed JSON, a malformed JSON-RPC message or a batch " +
          "(JSON-RPC error: one message per POST)",
        content: { "application/json": { schema: jsonRpcOrError } },
      },
      ...errorResponses([401, 404, 429]),
      "406": { description: "Accept does not list application/json and text/event-stream", content: jsonRpcError },
      "413": { description: "The body is too large", content: { "application/json": { schema: jsonRpcOrError } } },
      "415": { description: "Content-Type is not application/json", content: jsonRpcError },
      "500": { description: "INTERNAL_SERVER_ERROR", content: { "application/json": { schema: jsonRpcOrError } } },
    },
    security: [{ apiKey: [] }],
  };
}

/** The operation every other method of a path is: 405 with `Allow`, before any key is checked. */
function notAllowedOperation(path: string, method: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  return {
    operationId: `${method}${path.replace(/\W+(\w)?/g, (_, next?: string) => (next ?? "").toUpperCase())}NotAllowed`,
    summary: `Not allowed: ${method.toUpperCase()} ${path} answers 405`,
    tags: ["Not allowed"],
    // In the document for tools and clients; the reference at /docs would list 144 of them among the API's
    // own operations.
    "x-scalar-ignore": true,
    // An empty segment is another path (and another route): a path parameter has at least one character.
    parameters: names.map((name) => ({ name, in: "path", required: true, schema: { type: "string", minLength: 1 } })),
    responses: errorResponses([405]),
  };
}

/**
 * The groups of operations in the order a reader needs them (references list them so): what an application
 * calls first, the organization's plumbing after. The 405s of every other method ("Not allowed") are left out:
 * a reference lists a declared group even when all its operations are hidden from it.
 */
const TAGS = [
  ["Memory", "Remember, recall, ask and forget; read, edit and list memories"],
  ["Namespaces", "Where memories live: create, list, update, export and import"],
  ["Grants", "Which keys and users reach a namespace"],
  ["Documents", "Files and URLs stored as memories, cited by page"],
  ["Entities", "The people, places and things memories mention"],
  ["Events", "The feed of changes to the memory a key may read"],
  ["Webhooks", "The same changes, POSTed to your endpoints and signed"],
  ["Erasures", "Receipts of what was forgotten"],
  ["Integrations", "Connections to other services that keep a namespace in sync"],
  ["MCP", "The namespace's endpoint for agents"],
  ["Service", "Health and this document"],
] as const;

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
export function openApiDocument() {
  const components: Components = new Map();
  // Every error answer refers to it: listed even though no operation's schema contains it.
  jsonSchema(ErrorBodySchema, "output", components);
  const paths: Record<string, Record<string, object>> = {
    "/health": { get: healthOperation(components) },
    "/openapi.json": { get: openApiOperation() },
    "/integrations/callback": { get: integrationCallbackOperation() },
  };
  for (const [name, op] of Object.entries(operations) as [string, Operation][]) {
    paths[op.http.path] ??= {};
    paths[op.http.path][op.http.method.toLowerCase()] = operationOf(name, op, components);
  }
  paths["/mcp/{namespace_id}"] = { post: mcpOperation(components) };
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) item[method] ??= notAllowedOperation(path, method);
  }
  const named = namedComponents(paths, components);
  return {
    openapi: "3.1.0",
    info: {
      title: "Memory Gateway API",
      version: "1.0.0",
      description: [
        "Multi-tenant memory for AI applications: namespaces, remember, recall, forget and ask.",
        "Every response is the envelope `{success, data}` or `{success: false, error: {code, message, details?}}`.",
        "Strings must be valid Unicode without U+0000; names are NFC-normalized and trimmed, and refuse control,",
        "zero-width and bidirectional-override characters. Memory operations name their namespace by exactly one",
        "of `namespace_id` and `external_reference_id`.",
      ].join(" "),
    },
    servers: [{ url: `${publicUrl()}/api/v1` }],
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths: named.document,
    components: {
      securitySchemes: {
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key `mgw_…` from the console or `npx memgw key create`.",
        },
      },
      schemas: {
        ...named.schemas,
        JsonRpcMessage: {
          type: "object",
          description: "A JSON-RPC 2.0 request, notification, response or error (MCP)",
          required: ["jsonrpc"],
          properties: {
            jsonrpc: { const: "2.0" },
            id: { type: ["string", "integer", "null"] },
            method: { type: "string" },
            params: { type: "object" },
            result: { type: "object" },
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
            },
          },
        },
      },
    },
  };
}
