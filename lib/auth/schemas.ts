// Form schemas of keys and SSO: importable by console forms in the browser.
import { z } from "zod";
import { Permission } from "./permissions";
import { Scopes } from "./scopes";

export const ApiKeyForm = z.strictObject({
  name: z.string().trim().min(1, "give the key a name you will recognize").max(100, "must be at most 100 characters"),
  permissions: z.array(Permission).min(1, "choose at least one permission"),
  scopes: Scopes,
  namespace_ids: z.array(z.string().min(1)).max(100, "grant at most 100 namespaces"),
});
export type ApiKeyForm = z.infer<typeof ApiKeyForm>;

export const KeyIdForm = z.strictObject({ key_id: z.string().min(1) });

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be domains like example.com");

export const OidcConnectionForm = z.strictObject({
  issuer: z.url("must be the issuer URL, like https://idp.example.com").max(2000),
  client_id: z.string().trim().min(1, "must not be empty").max(500),
  /** Empty when editing keeps the stored secret. */
  client_secret: z.string().max(2000),
  allowed_domains: z.array(Domain).min(1, "name at least one email domain").max(50),
});
export type OidcConnectionForm = z.infer<typeof OidcConnectionForm>;

export const SsoStartForm = z.strictObject({ email_or_slug: z.string().trim().min(1, "enter your work email or organization slug").max(254) });
