// Every operation an API key can run (docs/api.md): the HTTP API's routes and OpenAPI document (lib/api) and the
// MCP tools (lib/mcp/server.ts) are built from this table, gathered from a file per area (lib/operations/catalogue/),
// each of which gathers its operations (one file each, with its HTTP binding: lib/operations/<area>/), in this order.
import { z } from "zod";
import { identifier } from "@/lib/validation/strings";
import { namespacesOperations } from "./catalogue/namespaces";
import { memoriesOperations } from "./catalogue/memories";
import { documentsOperations } from "./catalogue/documents";
import { entitiesOperations } from "./catalogue/entities";
import { integrationsOperations } from "./catalogue/integrations";
import { eventsOperations } from "./catalogue/events";

/** The namespace an MCP endpoint's tools run in, as its path names it: `/mcp/{namespace_id}`. */
export const McpPathParams = z.strictObject({ namespace_id: identifier({ min: 1 }) });

export const operations = {
  ...namespacesOperations,
  ...memoriesOperations,
  ...documentsOperations,
  ...entitiesOperations,
  ...integrationsOperations,
  ...eventsOperations,
};
