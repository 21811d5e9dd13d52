import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import type { Scopes } from "@/lib/auth/scopes";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { createOrganization } from "@/lib/orgs/organizations";
import { api } from "./api";

export interface KeyOptions {
  permissions?: Permission[];
  scopes?: Scopes;
  namespaceIds?: string[];
  name?: string;
}

export async function createKey(orgId: string, options: KeyOptions = {}) {
  const { key, secret } = await createApiKey(
    {
      orgId,
      name: options.name ?? "test key",
      // A key with scopes cannot have NAMESPACE_MANAGE (namespace-wide operations are refused to it).
      permissions:
        options.permissions ??
        PERMISSIONS.filter((p) => Object.keys(options.scopes ?? {}).length === 0 || p !== "NAMESPACE_MANAGE"),
      scopes: options.scopes,
      namespaceIds: options.namespaceIds,
    },
    SYSTEM_ACTOR,
  );
  return { id: key.id, secret };
}

/** A fresh organization with a full-permission key: every test makes its own tenant. */
export async function createTenant(name = "Tenant") {
  const org = await createOrganization(name, SYSTEM_ACTOR);
  const key = await createKey(org.id, { name: `${name} admin key` });
  return { org, key: key.secret, keyId: key.id };
}

export async function createNamespace(key: string, body: Record<string, unknown> = {}) {
  const response = await api("POST", "/namespaces", {
    key,
    body: { name: `ns-${Math.random().toString(36).slice(2)}`, ...body },
  });
  if (response.status !== 201) throw new Error(`createNamespace failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; name: string; external_reference_id: string | null };
}
