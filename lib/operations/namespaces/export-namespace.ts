import { exportNamespace } from "@/lib/portability/export";
import { ExportLineSchema, ExportQuery } from "@/lib/portability/export-format";
import { NamespaceIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const exportNamespaceOperation = operation({
  http: {
    method: "GET",
    path: "/namespaces/{id}/export",
    tag: "Namespaces",
    summary:
      "Stream every memory of a namespace as NDJSON (a header line, then one line per memory with its history " +
      "and, with include_vectors=true, its vectors); a key with scopes exports only memories within them",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: NamespaceIdParams,
  query: ExportQuery,
  response: ExportLineSchema,
  ndjson: { response: true },
  run: ({ principal, params, query }) =>
    exportNamespace(principal, params.id, { includeVectors: query.include_vectors }),
});
