import { z } from "zod";

/**
 * The schemas the OpenAPI document names (its `components.schemas`), so generated clients get named types
 * and a shared field is described once. A registry of its own rather than zod's global one: an id there
 * would turn every other conversion into `$defs` and `$ref`s too, the MCP tools' input schemas included,
 * which MCP clients read inline.
 */
export const schemaNames = z.registry<{ id: string }>();

/** `schema`, listed in the OpenAPI document as `components.schemas[id]` and referenced wherever it is used. */
export function named<S extends z.ZodType>(schema: S, id: string): S {
  schemaNames.add(schema, { id });
  return schema;
}
