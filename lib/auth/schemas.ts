// Form schemas of keys and SSO: importable by console forms in the browser.
import { z } from "zod";
import { identifier, name, text } from "@/lib/validation/strings";
import { Permission } from "./permissions";
import { Scopes } from "./scopes";

/** The longest key name: the API's limit for every name it accepts. */
export const KEY_NAME_MAX_LENGTH = 255;
export const KeyName = name({ max: KEY_NAME_MAX_LENGTH }).min(1, "give the key a name you will recognize");
/** The most namespaces one key is granted when created (more are granted one by one through the API). */
export const KEY_NAMESPACES_MAX = 100;
export const TOO_MANY_KEY_NAMESPACES = `grant at most ${KEY_NAMESPACES_MAX} namespaces`;

export const ApiKeyForm = z.strictObject({
  name: KeyName,
  permissions: z.array(Permission).min(1, "choose at least one permission"),
  scopes: Scopes,
  namespace_ids: z.array(identifier({ min: 1 })).max(KEY_NAMESPACES_MAX, TOO_MANY_KEY_NAMESPACES),
});
export type ApiKeyForm = z.infer<typeof ApiKeyForm>;

export const KeyIdForm = z.strictObject({ key_id: identifier({ min: 1 }) });

/** Editing a key (its namespaces, permissions, scopes): each field left out stays as it is. */
export const ApiKeyEditForm = z.strictObject({
  key_id: identifier({ min: 1 }),
  permissions: ApiKeyForm.shape.permissions.optional(),
  scopes: Scopes.optional(),
  namespace_ids: ApiKeyForm.shape.namespace_ids.optional(),
});
export type ApiKeyEditForm = z.infer<typeof ApiKeyEditForm>;

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be domains like example.com");

export const OidcConnectionForm = z.strictObject({
  issuer: text({ max: 2000 }).pipe(z.url("must be the issuer URL, like https://idp.example.com")),
  client_id: text({ max: 500 }).trim().min(1, "must not be empty"),
  /** Empty when editing keeps the stored secret. */
  client_secret: text({ max: 2000 }),
  allowed_domains: z.array(Domain).min(1, "name at least one email domain").max(50),
});
export type OidcConnectionForm = z.infer<typeof OidcConnectionForm>;

export const SsoStartForm = z.strictObject({
  email_or_slug: text({ max: 254 }).trim().min(1, "enter your work email or organization slug"),
});
