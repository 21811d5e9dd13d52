import { IdentityIdParams } from "@/lib/memory/entities/identity-entities";
import { identityProfile, IdentityProfileQuery, IdentityProfileSchema } from "@/lib/memory/read/identity-profile";
import { operation } from "../operation";

export const identityProfileOperation = operation({
  http: {
    method: "GET",
    path: "/identities/{id}/profile",
    tag: "Memory",
    summary:
      "What holds of an identity in one namespace, now or as_of a time: its current facts (one per fact_key or " +
      "inferred slot, each with since when), its recent memories, its main entities and what replaced what",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: IdentityIdParams,
  query: IdentityProfileQuery,
  response: IdentityProfileSchema,
  activity: "identity_profile",
  run: ({ principal, params, query, activity }) =>
    identityProfile(principal, { identityId: params.id, namespaceId: query.namespace_id, asOf: query.as_of }, activity),
});
