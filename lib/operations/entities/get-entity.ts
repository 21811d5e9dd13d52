import { EntityDetailSchema, EntityIdParams, getEntity } from "@/lib/memory/entities/get-entity";
import { operation } from "../operation";

export const getEntityOperation = operation({
  http: {
    method: "GET",
    path: "/entities/{id}",
    tag: "Entities",
    summary:
      "One entity: its aliases, how many memories mention it and how often, its first and last mention " +
      "(event time), and the entities mentioned with it, within the key's scopes",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  params: EntityIdParams,
  response: EntityDetailSchema,
  activity: "get_entity",
  run: ({ principal, params, activity }) => getEntity(principal, params.id, activity),
});
