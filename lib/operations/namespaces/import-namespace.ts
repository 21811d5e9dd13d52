import { ImportLineSchema, ImportResultSchema } from "@/lib/portability/export-format";
import { importNamespace } from "@/lib/portability/import";
import { NamespaceIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const importNamespaceOperation = operation({
  http: {
    method: "POST",
    path: "/namespaces/{id}/import",
    tag: "Namespaces",
    summary:
      "Import an export (NDJSON body): every line is validated first, then all memories are written or none; " +
      "new ids, everything else kept; vectors reused when made by the current embedding model",
    errors: [404, 502, 503],
  },
  permission: "NAMESPACE_WRITE",
  params: NamespaceIdParams,
  response: ImportResultSchema,
  ndjson: { request: ImportLineSchema },
  successStatus: 201,
  run: ({ principal, params, bodyStream }) => importNamespace(principal, params.id, bodyStream!),
});
