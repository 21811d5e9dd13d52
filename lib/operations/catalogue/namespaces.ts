// Namespaces, their export and import, and their grants.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { z } from "zod";
import { Page, PaginationQuery } from "@/lib/http/pagination";
import { exportNamespace } from "@/lib/portability/export";
import { ExportLineSchema, ExportQuery, ImportLineSchema, ImportResultSchema } from "@/lib/portability/export-format";
import { importNamespace } from "@/lib/portability/import";
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
import { operation } from "../operation";

export const namespacesOperations = {
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
  // Export and import stream NDJSON (lib/portability/export-format.ts): a namespace of any size, never held whole.
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
};
