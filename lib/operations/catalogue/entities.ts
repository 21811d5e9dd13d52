// Entities (people, places, things, dates) the memories name.
// Part of the operation catalogue (lib/operations/catalogue.ts), which gathers every area's in order.
import { listEntitiesOperation } from "../entities/list-entities";
import { getEntityOperation } from "../entities/get-entity";
import { identityEntitiesOperation } from "../entities/identity-entities";

export const entitiesOperations = {
  // Entities (people, places, things, dates) the memories name, counted over what the caller may see.
  listEntities: listEntitiesOperation,
  getEntity: getEntityOperation,
  identityEntities: identityEntitiesOperation,
};
