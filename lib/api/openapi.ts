import { z } from "zod";
import { publicUrl } from "@/lib/config";
import type { Endpoint } from "./endpoint";
import { endpoints } from "./endpoints";
import { ERROR_STATUS, ErrorBodySchema } from "./errors";
import { PaginationSchema } from "./pagination";

const STATUS_TEXT: Record<number, string> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code]),
);

function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  // Draft 2020-12 is the dialect of OpenAPI 3.1.
  return z.toJSONSchema(schema, { io, unrepresentable: "any" });
}

function parametersOf(ep: Endpoint) {
  const parameters: object[] = [];
  for (const [location, schema] of [["path", ep.params], ["query", ep.query]] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, "input") as { properties?: Record<string, object>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      parameters.push({ name, in: location, required: location === "path" || (json.required ?? []).includes(name), schema: property });
    }
  }
  return parameters;
}

function operationOf(name: string, ep: Endpoint) {
  const data = ep.paginated ? z.array(ep.response) : ep.response;
  const success = z.object({
    success: z.literal(true),
    data,
    ...(ep.paginated ? { pagination: PaginationSchema } : {}),
  });
  const errorStatuses = [400, 401, ...(ep.permission ? [403] : []), ...(ep.errors ?? []), 500];
  return {
    operationId: name,
    summary: ep.summary,
    tags: [ep.tag],
    ...(ep.permission ? { description: `Requires the ${ep.permission} permission.` } : {}),
    parameters: parametersOf(ep),
    ...(ep.body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(ep.body, "input") } } } }
      : {}),
    responses: {
      [String(ep.successStatus ?? 200)]: {
        description: "Success",
        content: { "application/json": { schema: jsonSchema(success, "output") } },
      },
      ...Object.fromEntries(
        [...new Set(errorStatuses)].map((status) => [
          String(status),
          { description: STATUS_TEXT[status], content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        ]),
      ),
    },
  };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers validate with. */
export function openApiDocument() {
  const paths: Record<string, Record<string, object>> = {};
  for (const [name, ep] of Object.entries(endpoints) as [string, Endpoint][]) {
    paths[ep.path] ??= {};
    paths[ep.path][ep.method.toLowerCase()] = {
      ...operationOf(name, ep),
      ...(ep.permission ? { security: [{ apiKey: [] }] } : {}),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Memory Gateway API",
      version: "1.0.0",
      description: "Multi-tenant memory for AI applications: namespaces, remember, recall, forget and ask.",
    },
    servers: [{ url: `${publicUrl()}/api/v1` }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An API key `mgw_…` from the console or `npx memgw key create`." } },
      schemas: { Error: jsonSchema(ErrorBodySchema, "output") },
    },
  };
}
