// The console's namespace forms, parsed by the server actions. Each field is checked by the API's own
// rules (lib/namespaces/schemas.ts); an empty optional field means "none".
import { z } from "zod";
import { identifier, text } from "@/lib/validation/strings";
import { Description, ExternalReferenceId, NamespaceName } from "./schemas";

/** An empty input is `blank` ("not given" when creating, "clear it" when editing); anything else `schema`'s. */
const orBlank = <S extends z.ZodType, B extends undefined | null>(schema: S, blank: B) =>
  z.preprocess((value) => (value === "" ? blank : value), blank === null ? schema.nullable() : schema.optional());

export const CreateNamespaceForm = z.strictObject({
  name: NamespaceName,
  description: orBlank(Description, undefined),
  external_reference_id: orBlank(ExternalReferenceId, undefined),
  /** Keys of the organization granted the new namespace as it is made (`grantableKeys`). */
  api_key_ids: z
    .array(identifier({ min: 1 }))
    .max(100)
    .default([]),
});

const NamespaceId = identifier({ min: 1 });

/** The overview's fields edited in place; an empty value clears one. The API requires at least one. */
export const EditNamespaceForm = z.strictObject({
  namespace_id: NamespaceId,
  description: orBlank(Description, null).optional(),
  external_reference_id: orBlank(ExternalReferenceId, null).optional(),
});

export const NamespaceIdForm = z.strictObject({ namespace_id: NamespaceId });

/** A grant to exactly one API key or one member (the API's CreateGrantBody refuses both or neither). */
export const AddGrantForm = z.strictObject({
  namespace_id: NamespaceId,
  api_key_id: identifier({ min: 1 }).optional(),
  user_id: identifier({ min: 1 }).optional(),
});

export const RemoveGrantForm = z.strictObject({ namespace_id: NamespaceId, grant_id: identifier({ min: 1 }) });

/** The list's search box: a part of a name, compared like names are stored (NFC). */
export const NamespaceSearch = text({ max: 255 })
  .trim()
  .transform((value) => value.normalize("NFC"));
