import { CursorPage } from "@/lib/http/pagination";
import { EntitySchema } from "@/lib/memory/entities/entity-json";
import { ListEntitiesQuery, listEntities, listEntitiesInput } from "@/lib/memory/entities/list-entities";
import { operation } from "../operation";

export const listEntitiesOperation = operation({
  http: {
    method: "GET",
    path: "/entities",
    tag: "Entities",
    summary:
      "The people, organizations, places, works, events and dates a namespace's memories name, the most " +
      "mentioned first, a page at a time (follow pagination.nextCursor), filtered by kind and by a part of " +
      "the name or an alias; counts over the memories within the key's scopes (an entity only other memories " +
      "name is not listed)",
    errors: [404],
  },
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
});
