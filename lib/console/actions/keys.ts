"use server";
// The console's key mutations: creating, editing and revoking a key, and creating a namespace from the key
// dialog.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey } from "@/lib/auth/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { updateApiKey } from "@/lib/auth/api-keys/update-api-key";
import { ROLES } from "@/lib/auth/permissions";
import { ApiKeyEditForm, ApiKeyForm, KeyIdForm } from "@/lib/auth/schemas";
import { runConsoleAction } from "@/lib/console/action";
import { CreateNamespaceBody } from "@/lib/namespaces/schemas";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

const ADMINS = ["owner", "admin"] as const;

/** The key-creation policy (who, which namespaces, which permissions, scopes) is createApiKey's. */
export async function generateApiKey(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: ApiKeyForm }, form, async (context, input) => {
    const { key, secret } = await createApiKey(
      {
        orgId: context.orgId,
        name: input.name,
        permissions: input.permissions,
        scopes: input.scopes,
        namespaceIds: input.namespace_ids,
        createdById: context.userId,
      },
      context.actor,
    );
    revalidatePath(`/${context.orgSlug}/keys`);
    return { id: key.id, name: key.name, secret };
  });
}

export async function revokeKey(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: KeyIdForm }, form, async (context, input) => {
    // Members revoke the keys they created; owners and admins any key of the organization.
    const createdById = context.role === "member" ? context.userId : undefined;
    await revokeApiKey(input.key_id, context.actor, { orgId: context.orgId, createdById });
    revalidatePath(`/${context.orgSlug}/keys`);
    return null;
  });
}

/**
 * Changes a key's permissions, scopes and namespaces; the policy (members their own keys, within their
 * role and namespaces; owners and admins any key of the organization) is updateApiKey's.
 */
export async function editApiKey(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { roles: ROLES, input: ApiKeyEditForm }, form, async (context, input) => {
    const { key, namespaceIds } = await updateApiKey(
      {
        orgId: context.orgId,
        keyId: input.key_id,
        editorId: context.userId,
        permissions: input.permissions,
        scopes: input.scopes,
        namespaceIds: input.namespace_ids,
      },
      context.actor,
    );
    revalidatePath(`/${context.orgSlug}/keys`);
    revalidatePath(`/${context.orgSlug}/scopes`);
    return { id: key.id, name: key.name, namespaceIds };
  });
}

/** A namespace made from the key dialog, to grant the new key at once: the API's createNamespace operation. */
export async function createNamespaceForKey(orgSlug: string, form: unknown) {
  const input = z.strictObject({ name: CreateNamespaceBody.shape.name });
  return runConsoleAction(orgSlug, { roles: ADMINS, input }, form, async (context, body) => {
    const { data: namespace } = await runOperation(operations.createNamespace, context.principal, {
      body: async () => body,
    });
    revalidatePath(`/${context.orgSlug}/keys`);
    return { id: namespace.id, name: namespace.name };
  });
}
