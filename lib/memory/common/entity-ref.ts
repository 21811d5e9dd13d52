// An entity by name only, as a recall match or a co-occurring entity carries it: apart from the reads' SQL so
// that the memory schemas (lib/memory/common/schemas.ts) can use it.
import { z } from "zod";
import { named } from "@/lib/validation/named";
import { text } from "@/lib/validation/strings";
import { ENTITY_KINDS } from "./entity-kinds";

export const EntityKindSchema = z
  .enum(ENTITY_KINDS, { error: `must be one of ${ENTITY_KINDS.join(", ")}` })
  .describe("what the entity is");

export const EntityRefSchema = z.object({
  id: z.string(),
  kind: EntityKindSchema,
  name: z.string().describe("as first written; a date as the day, month, season or year it resolves to"),
});
export type EntityRefJson = z.infer<typeof EntityRefSchema>;

/** How many entities a recall may require, and how long each may be. */
export const ENTITY_FILTER_LIMITS = { entities: 20, chars: 200 };

/** Entities every memory recalled must mention: ids, or names resolved as writes resolve them. */
export const EntitiesFilter = z
  .array(
    text({
      min: 1,
      max: ENTITY_FILTER_LIMITS.chars,
      notBlank: true,
      lengthMessage: `must be 1 to ${ENTITY_FILTER_LIMITS.chars} characters`,
    }),
    { error: "must be a list of entity ids or names" },
  )
  .max(ENTITY_FILTER_LIMITS.entities, `at most ${ENTITY_FILTER_LIMITS.entities} entities`)
  .describe(
    "only memories that mention every one of these entities: an id (GET /entities) or a name " +
      '("Caroline", "Mel\'s", "Grand Canyon", a date as "May 2023" or "2023-05"), matched as writes ' +
      "merge mentions (case, possessives, aliases); a name no memory mentions matches nothing",
  );

named(EntityRefSchema, "EntityRef");
