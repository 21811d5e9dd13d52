import { recordAudit, type Actor } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { recordEvents } from "@/lib/event-recording/record-events";
import { newId } from "@/lib/ids";
import type { Permission } from "../permissions";
import type { Scopes } from "../scopes";
import {
  assertKeyPolicy,
  assertNamespaceCount,
  assertScopedKeyCannotManage,
  creatingMember,
  grantNamespaces,
} from "./key-policy";
import { displayKeySecret, generateKeySecret, hashKeySecret } from "./key-secrets";

export interface CreateApiKeyInput {
  orgId: string;
  name: string;
  permissions: Permission[];
  scopes?: Scopes;
  namespaceIds?: string[];
  /**
   * The member creating the key (the console), whose role and namespaces bound it. Absent for the operator
   * (the `memgw` command line): nothing bounds an operator key but its organization.
   */
  createdById?: string;
  /** A caller-chosen secret (headless bootstrap only); otherwise one is generated. */
  secret?: string;
  /** For a connected MCP client (lib/oauth/connections.ts): its OAuth client and the grant it stands for. */
  oauth?: { clientId: string; grantId: string };
}

/**
 * The whole key-creation policy, the same for the console, the CLI and the start-up bootstrap:
 * - who: a member of the organization (any role), or the operator;
 * - namespaces: at most KEY_NAMESPACES_MAX, of the organization, and for a member only those they may use
 *   themselves (namespacesOfMember);
 * - permissions: at most what the creator's role allows (ROLE_PERMISSIONS);
 * - scopes: a key with scopes cannot manage namespaces.
 * Editing a key later (updateApiKey) goes through the same checks (assertKeyPolicy).
 */
export async function createApiKey(input: CreateApiKeyInput, actor: Actor) {
  assertScopedKeyCannotManage(input.permissions, input.scopes);
  const namespaceIds = [...new Set(input.namespaceIds ?? [])];
  assertNamespaceCount(namespaceIds, "when created");
  const secret = input.secret ?? generateKeySecret();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const org = await tx.organization.findUnique({ where: { id: input.orgId } });
    if (!org) throw notFound(`Organization ${input.orgId}`);
    const creator = input.createdById ? await creatingMember(tx, input.orgId, input.createdById) : null;
    const access = { permissions: input.permissions, scopes: input.scopes ?? {} };
    await assertKeyPolicy(tx, input.orgId, creator, access, { permissions: input.permissions, namespaceIds });

    const key = await tx.apiKey.create({
      data: {
        id: newId("key"),
        orgId: input.orgId,
        name: input.name,
        secretHash: hashKeySecret(secret),
        display: displayKeySecret(secret),
        permissions: [...new Set(input.permissions)],
        scopes: input.scopes ?? {},
        createdById: input.createdById ?? null,
        oauthClientId: input.oauth?.clientId ?? null,
        oauthGrantId: input.oauth?.grantId ?? null,
      },
    });
    await grantNamespaces(tx, input.orgId, key.id, namespaceIds);
    await recordAudit(tx, {
      orgId: input.orgId,
      actor,
      action: input.oauth ? "mcp_client.connect" : "api_key.create",
      targetType: "api_key",
      targetId: key.id,
      details: {
        name: key.name,
        permissions: key.permissions,
        scopes: key.scopes,
        namespace_ids: namespaceIds,
        ...(input.oauth ? { client_id: input.oauth.clientId } : {}),
      },
    });
    if (!input.oauth) {
      await recordEvents(tx, input.orgId, [
        {
          type: "api_key.created",
          data: { api_key_id: key.id, name: key.name, permissions: key.permissions, namespace_ids: namespaceIds },
        },
      ]);
    }
    return { key, secret, namespaceIds };
  });
}
