"use server";
// The integrations page's mutations. Connecting, syncing and disconnecting run the API's own operations
// (runOperation) as the signed-in person, so the permission (INTEGRATION_MANAGE: owners and admins), the
// validation, the organization bound and the conflicts are the API's. The organization's own OAuth client
// is for owners only, and its secret never comes back in any result.
import { revalidatePath } from "next/cache";
import { cookies } from "next/headers";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { publicUrl } from "@/lib/config";
import { z } from "zod";
import { ROLE_PERMISSIONS, ROLES } from "@/lib/auth/permissions";
import { asFormFields, runConsoleAction, type ConsoleContext } from "@/lib/console/action";
import { deleteIntegrationClient, IntegrationClientForm, saveIntegrationClient } from "@/lib/integrations/clients";
import {
  bindConnectionToBrowser,
  browserBindingCookie,
} from "@/lib/integrations/connections/bind-connection-to-browser";
import { connectionMemoryCount } from "@/lib/integrations/connections/count-connection-memories";
import { ProviderIdSchema } from "@/lib/integrations/schemas";
import { getNamespace } from "@/lib/namespaces/namespaces";
import { operations } from "@/lib/operations/catalogue";
import { runOperation } from "@/lib/operations/run";
import { identifier } from "@/lib/validation/strings";

/** The roles whose members may manage integrations: the same table the API's permission check reads. */
const INTEGRATION_ROLES = {
  roles: ROLES.filter((role) => ROLE_PERMISSIONS[role].includes("INTEGRATION_MANAGE")),
};
const OWNERS = { roles: ["owner"] as const };

const ConnectionId = identifier({ min: 1 });

/** The connect dialog: where the documents go and what narrows them (checked by the provider's own schema). */
const ConnectForm = z.strictObject({
  provider: ProviderIdSchema,
  namespace_id: identifier({ min: 1 }),
  options: z.record(z.string(), z.unknown()).optional(),
});
const ConnectionIdForm = z.strictObject({ connection_id: ConnectionId });
const DisconnectForm = z.strictObject({ connection_id: ConnectionId, keep_memories: z.boolean().default(false) });
const ProviderForm = z.strictObject({ provider: ProviderIdSchema });

/**
 * Starts a connection (pending) and answers the provider's consent page to send the browser to. No redirect
 * URI is given: the API's default is its browser callback, which comes back to /{org}/integrations.
 */
export async function connectIntegrationAction(orgSlug: string, form: unknown) {
  const result = await runConsoleAction(
    orgSlug,
    { ...INTEGRATION_ROLES, input: ConnectForm },
    form,
    async (context, input) => {
      // A namespace the person may not see (another organization's) is not found, before anything is created.
      await getNamespace(context.principal, input.namespace_id);
      const { data: created } = await runOperation(operations.createIntegrationConnection, context.principal, {
        body: async () => input,
      });
      refresh(context);
      await bindToThisBrowser(context.principal, created.connection.id);
      return { connection_id: created.connection.id, authorization_url: created.authorization_url };
    },
  );
  return asFormFields(result);
}

/** Queues a sync now; a sync already queued or running is the API's 409, shown as it says. */
export async function syncIntegrationAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...INTEGRATION_ROLES, input: ConnectionIdForm }, form, async (context, input) => {
    const { data: connection } = await runOperation(operations.syncIntegrationConnection, context.principal, {
      params: { id: input.connection_id },
    });
    refresh(context, connection.namespace_id);
    return { status: connection.status };
  });
}

/**
 * Authorizes an existing connection again (the provider refused or revoked its access): answers the consent
 * page to send the browser to. The connection and its memories stay; the callback brings the person back.
 */
export async function reconnectIntegrationAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...INTEGRATION_ROLES, input: ConnectionIdForm }, form, async (context, input) => {
    const { data } = await runOperation(operations.reconnectIntegrationConnection, context.principal, {
      params: { id: input.connection_id },
      body: async () => ({}),
    });
    await bindToThisBrowser(context.principal, input.connection_id);
    return { authorization_url: data.authorization_url };
  });
}

/** How many memories disconnecting would delete: what the confirmation says before the person decides. */
export async function connectionMemoriesAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...INTEGRATION_ROLES, input: ConnectionIdForm }, form, async (context, input) => {
    // The operation's permission first, as for every other route to a connection (404 for another organization's).
    await runOperation(operations.getIntegrationConnection, context.principal, { params: { id: input.connection_id } });
    return { memories: await connectionMemoryCount(context.principal, input.connection_id) };
  });
}

/** Revokes the token at the provider and deletes the connection, with its memories unless asked to keep them. */
export async function disconnectIntegrationAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...INTEGRATION_ROLES, input: DisconnectForm }, form, async (context, input) => {
    const id = input.connection_id;
    const { data: connection } = await runOperation(operations.getIntegrationConnection, context.principal, {
      params: { id },
    });
    const { data: deleted } = await runOperation(operations.deleteIntegrationConnection, context.principal, {
      params: { id },
      query: { keep_memories: String(input.keep_memories) },
    });
    refresh(context, connection.namespace_id);
    return { memories_deleted: deleted.memories_deleted, memories_kept: deleted.memories_kept };
  });
}

/** The organization's own OAuth client for a provider (owners only): the secret is stored encrypted, never shown. */
export async function saveIntegrationClientAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...OWNERS, input: IntegrationClientForm }, form, async (context, input) => {
    const saved = await saveIntegrationClient(context.orgId, input, context.actor);
    refresh(context);
    return { provider: saved.provider, client_id: saved.clientId };
  });
}

export async function removeIntegrationClientAction(orgSlug: string, form: unknown) {
  return runConsoleAction(orgSlug, { ...OWNERS, input: ProviderForm }, form, async (context, { provider }) => {
    await deleteIntegrationClient(context.orgId, provider, context.actor);
    refresh(context);
    return null;
  });
}

/**
 * The flow just started completes only in this browser: the callback asks for this cookie (HttpOnly, sent
 * only to the callback, for the 10 minutes the state lives; Lax, so the provider's redirect back brings it).
 */
async function bindToThisBrowser(principal: MemberPrincipal, connectionId: string) {
  const nonce = await bindConnectionToBrowser(principal, connectionId);
  (await cookies()).set(browserBindingCookie(connectionId), nonce, {
    httpOnly: true,
    sameSite: "lax",
    secure: publicUrl().startsWith("https:"),
    path: "/api/v1/integrations/callback",
    maxAge: 600,
  });
}

function refresh(context: ConsoleContext, namespaceId?: string) {
  revalidatePath(`/${context.orgSlug}/integrations`);
  if (namespaceId) revalidatePath(`/${context.orgSlug}/namespaces/${namespaceId}`);
}
