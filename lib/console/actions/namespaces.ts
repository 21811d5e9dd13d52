"use server";
// The namespace pages' mutations. Each runs the API's own operation (runOperation) as the signed-in
// person, so the permission check, the validation and the conflicts are the API's. Any role may call
// them: a namespace the person may not see is "not found" first (the same answer as for an id of
// another organization), and only then does the operation's permission refuse a member who may see it.
import { revalidatePath } from "next/cache";
import { ROLES } from "@/lib/auth/permissions";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { asFormFields, runConsoleAction, type ConsoleContext } from "@/lib/console/action";
import { InvalidError } from "@/lib/errors";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { grantableKeys } from "@/lib/namespaces/overview";
import {
  AddGrantForm,
  CreateNamespaceForm,
  EditNamespaceForm,
  NamespaceIdForm,
  RemoveGrantForm,
} from "@/lib/namespaces/forms";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";

const ANY_ROLE = { roles: ROLES };

export async function createNamespaceAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { ...ANY_ROLE, input: CreateNamespaceForm },
    form,
    async (context, { api_key_ids: keyIds, ...body }) => {
      // Checked before anything is made: a key of another organization, revoked or unknown changes nothing.
      const grantable = new Set((await grantableKeys(context.principal.orgId)).map((key) => key.id));
      const unknown = keyIds.findIndex((id) => !grantable.has(id));
      if (unknown !== -1) {
        const message = "is not an active API key of this organization";
        throw new InvalidError(`The key ${keyIds[unknown]} ${message}.`, [
          { field: `api_key_ids.${unknown}`, message },
        ]);
      }
      const { data: namespace } = await runOperation(operations.createNamespace, context.principal, {
        body: async () => body,
      });
      for (const api_key_id of new Set(keyIds)) {
        await runOperation(operations.createGrant, context.principal, {
          params: { id: namespace.id },
          body: async () => ({ api_key_id }),
        });
      }
      refresh(context);
      return { id: namespace.id, name: namespace.name };
    },
  );
  return asFormFields(result);
}

/** Changes the description or the external reference id (one field at a time, as the overview edits them). */
export async function editNamespaceAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { ...ANY_ROLE, input: EditNamespaceForm },
    form,
    async (context, input) => {
      const { namespace_id: id, ...body } = input;
      await assertVisible(context.principal, id);
      await runOperation(operations.updateNamespace, context.principal, { params: { id }, body: async () => body });
      refresh(context, id);
      return null;
    },
  );
  return asFormFields(result);
}

export async function deleteNamespaceAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...ANY_ROLE, input: NamespaceIdForm }, form, async (context, input) => {
    const id = input.namespace_id;
    await assertVisible(context.principal, id);
    await runOperation(operations.deleteNamespace, context.principal, { params: { id } });
    refresh(context, id);
    return null;
  });
}

export async function addGrantAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...ANY_ROLE, input: AddGrantForm }, form, async (context, input) => {
    const { namespace_id: id, ...body } = input;
    await assertVisible(context.principal, id);
    const { data } = await runOperation(operations.createGrant, context.principal, {
      params: { id },
      body: async () => body,
    });
    refresh(context, id);
    return { grant_id: data.id };
  });
}

export async function removeGrantAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...ANY_ROLE, input: RemoveGrantForm }, form, async (context, input) => {
    const id = input.namespace_id;
    await assertVisible(context.principal, id);
    await runOperation(operations.deleteGrant, context.principal, { params: { id, grantId: input.grant_id } });
    refresh(context, id);
    return null;
  });
}

/** Not found, as for the API, unless the person may see the namespace (before any permission is checked). */
async function assertVisible(principal: MemberPrincipal, namespaceId: string) {
  await getNamespace(principal, namespaceId);
}

function refresh(context: ConsoleContext, namespaceId?: string) {
  revalidatePath(`/${context.orgSlug}/namespaces`);
  if (namespaceId) revalidatePath(`/${context.orgSlug}/namespaces/${namespaceId}`);
}
