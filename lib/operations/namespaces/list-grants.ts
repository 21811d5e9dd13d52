import { z } from "zod";
import { listGrants } from "@/lib/namespaces/namespaces";
import { GrantSchema, grantJson, NamespaceIdParams } from "@/lib/namespaces/schemas";
import { operation } from "../operation";

export const listGrantsOperation = operation({
  http: {
    method: "GET",
    path: "/namespaces/{id}/grants",
    tag: "Grants",
    summary: "List the API keys and users granted access to a namespace",
    errors: [404],
  },
  permission: "NAMESPACE_MANAGE",
  namespaceWide: "listing a namespace's grants",
  params: NamespaceIdParams,
  response: z.array(GrantSchema),
  run: async ({ principal, params }) => (await listGrants(principal, params.id)).map(grantJson),
});
