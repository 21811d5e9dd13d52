// The pieces of the OpenAPI document (lib/api/openapi.ts) that turn zod schemas into JSON Schema and responses:
// named schemas collected as components, references made final, error and success responses, parameters.
import { z } from "zod";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { ERROR_STATUS } from "@/lib/http/errors";
import { CursorPaginationSchema, PaginationSchema } from "@/lib/http/pagination";
import { schemaNames } from "@/lib/validation/named";

const STATUS_TEXT: Record<number, string> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code]),
);

/** zod's metadata (descriptions, examples) with the OpenAPI names of lib/validation/named.ts. */
class DocumentMetadata extends z.core.$ZodRegistry<Record<string, unknown>> {
  override get(schema: z.core.$ZodType) {
    const meta = { ...z.globalRegistry.get(schema), ...schemaNames.get(schema) };
    return Object.keys(meta).length ? meta : undefined;
  }
}
export const metadata = new DocumentMetadata();

/**
 * The named schemas met while the document is written, by name and direction: a schema may read
 * differently as a request (defaults optional) and as a response. See `namedComponents`.
 */
export type Components = Map<string, { input?: object; output?: object }>;

/** Marks a reference to a named schema until namedComponents knows its final name. */
export const refTo = (name: string, io: "input" | "output") => `#/components/schemas/${name}@${io}`;

export function jsonSchema(schema: z.ZodType, io: "input" | "output", components: Components) {
  // Draft 2020-12 is the dialect of OpenAPI 3.1.
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any", metadata }) as Record<string, unknown>;
  delete json.$schema;
  const { $defs, ...rest } = json as { $defs?: Record<string, object> };
  for (const [name, definition] of Object.entries($defs ?? {})) {
    components.set(name, { ...components.get(name), [io]: withRefs(definition, io) });
  }
  return withRefs(rest, io) as Record<string, unknown>;
}

/** zod's references to its `$defs` as references to the document's components. */
export function withRefs(json: object, io: "input" | "output"): object {
  return JSON.parse(
    JSON.stringify(json, (key, value) =>
      key === "$ref" && typeof value === "string" && value.startsWith("#/$defs/")
        ? refTo(value.slice("#/$defs/".length), io)
        : value,
    ),
  );
}

/**
 * The components and the document with its references final: a schema that reads the same as a request
 * and as a response is one component; one that differs is two, the request's named `…Input`.
 */
export function namedComponents<D extends object>(document: D, components: Components) {
  const schemas: Record<string, object> = {};
  const names = new Map<string, string>();
  for (const [name, { input, output }] of components) {
    const same = !input || !output || JSON.stringify(input) === JSON.stringify(output);
    names.set(refTo(name, "output"), `#/components/schemas/${name}`);
    names.set(refTo(name, "input"), `#/components/schemas/${same ? name : `${name}Input`}`);
    if (output) schemas[name] = output;
    if (input && !same) schemas[`${name}Input`] = input;
    else if (input) schemas[name] = input;
  }
  const resolve = <T>(json: T): T =>
    JSON.parse(JSON.stringify(json, (key, value) => (key === "$ref" && names.get(value)) || value));
  return { document: resolve(document), schemas: resolve(schemas) };
}

export const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

const HEADERS: Record<number, object> = {
  405: { Allow: { description: "The methods this path answers", schema: { type: "string" } } },
  429: {
    "Retry-After": { description: "Seconds to wait before trying again", schema: { type: "integer", minimum: 0 } },
  },
};

const DESCRIPTIONS: Record<number, string> = {
  400: "BAD_REQUEST: invalid parameters or body (`error.details` names each field)",
  401: "UNAUTHORIZED: no API key, or an invalid, revoked or expired one",
  403: "FORBIDDEN: the key lacks the permission, or the request contradicts its scopes",
  404: "NOT_FOUND: no such resource visible to the key",
  405: "METHOD_NOT_ALLOWED: the path does not answer this method (see `Allow`)",
  409: "CONFLICT: a resource with these values already exists",
  413: `PAYLOAD_TOO_LARGE: the body is larger than ${MAX_BODY_BYTES} bytes`,
  429: "RATE_LIMITED: too many requests for this key; retry after `Retry-After` seconds",
  500: "INTERNAL_SERVER_ERROR: an unexpected error (no details are disclosed)",
  502: "UPSTREAM_ERROR: the embedding or chat model provider failed",
  503: "SERVICE_UNAVAILABLE: the embedding model is unavailable or still starting",
};

export function errorResponses(statuses: number[]) {
  return Object.fromEntries(
    [...new Set(statuses)]
      .sort((a, b) => a - b)
      .map((status) => {
        const description = DESCRIPTIONS[status] ?? STATUS_TEXT[status];
        const headers = HEADERS[status] ? { headers: HEADERS[status] } : {};
        return [String(status), { description, ...headers, content: errorContent }];
      }),
  );
}

export function parametersOf(ep: { params?: z.ZodType; query?: z.ZodType }, components: Components) {
  const parameters: object[] = [];
  for (const [location, schema] of [
    ["path", ep.params],
    ["query", ep.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, "input", components) as {
      properties?: Record<string, object>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const required = location === "path" || (json.required ?? []).includes(name);
      parameters.push({ name, in: location, required, schema: property });
    }
  }
  return parameters;
}

export function successContent(data: z.ZodType, components: Components, paginated: boolean | "cursor" = false) {
  const pagination = paginated === "cursor" ? CursorPaginationSchema : PaginationSchema;
  const success = z.object({ success: z.literal(true), data, ...(paginated ? { pagination } : {}) });
  return { "application/json": { schema: jsonSchema(success, "output", components) } };
}
