import {
  IdentityEntitiesQuery,
  IdentityEntitiesSchema,
  identityEntities,
  IdentityIdParams,
} from "@/lib/memory/entities/identity-entities";
import { operation } from "../operation";

export const identityEntitiesOperation = operation({
  http: {
    method: "GET",
    path: "/identities/{id}/entities",
    tag: "Entities",
    summary:
      "What an identity's memories are about: the entities they mention, by how many of them mention each, " +
      "in one namespace or every one the key may use, within the key's scopes",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: IdentityIdParams,
  query: IdentityEntitiesQuery,
  response: IdentityEntitiesSchema,
  activity: "identity_entities",
  run: ({ principal, params, query, activity }) =>
    identityEntities(
      principal,
      { identityId: params.id, namespaceId: query.namespace_id, limit: query.limit },
      activity,
    ),
});
