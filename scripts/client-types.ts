import openapiTS, { astToString } from "openapi-typescript";
import { format } from "prettier";
import { openApiDocument } from "@/lib/api/openapi";

/** The SDK's types as openapi-typescript writes them from the served document, formatted as the repository is. */
export async function generatedClientTypes(): Promise<string> {
  // Round-tripped through JSON: the document as served, not the objects that build it. A field with a default
  // is optional to send (openapi-typescript would otherwise make it required).
  const document = JSON.parse(JSON.stringify(openApiDocument()));
  const source = astToString(await openapiTS(document, { exportType: true, defaultNonNullable: false }));
  const header =
    "// Generated from the OpenAPI document served at /api/v1/openapi.json by scripts/generate-client-types.ts.\n" +
    "// Do not edit: run `npm run generate:client-types`.\n";
  return format(header + source, { parser: "typescript", printWidth: 120 });
}
