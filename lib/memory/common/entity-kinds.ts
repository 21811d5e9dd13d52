// The kinds of entity, apart from the extractor so that the API's schemas can name them without loading its models.
export const ENTITY_KINDS = ["person", "organization", "place", "work", "event", "date", "other"] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
