// Entities (people, places, things, dates) the memories name.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { CursorPage } from "@/lib/http/pagination";
import { EntitySchema } from "@/lib/memory/entities/entity-json";
import { EntityDetailSchema, EntityIdParams, getEntity } from "@/lib/memory/entities/get-entity";
import {
  IdentityEntitiesQuery,
  IdentityEntitiesSchema,
  identityEntities,
  IdentityIdParams,
} from "@/lib/memory/entities/identity-entities";
import { ListEntitiesQuery, listEntities, listEntitiesInput } from "@/lib/memory/entities/list-entities";
import { operation } from "../operation";

export const entitiesOperations = {
  // Entities (people, places, things, dates) the memories name, counted over what the caller may see.
  listEntities: operation({
    permission: "NAMESPACE_READ",
    query: ListEntitiesQuery,
    response: EntitySchema,
    paginated: "cursor",
    activity: "list_entities",
    async run({ principal, query, activity }) {
      const page = await listEntities(principal, listEntitiesInput(query), activity);
      activity.details = { entities: page.items.length };
      return new CursorPage(page.items, page.total, page);
    },
  }),
  getEntity: operation({
    permission: "NAMESPACE_READ",
    params: EntityIdParams,
    response: EntityDetailSchema,
    activity: "get_entity",
    run: ({ principal, params, activity }) => getEntity(principal, params.id, activity),
  }),
  identityEntities: operation({
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
  }),
};
