// The OAuth flow's shared parts: the client it runs with, the redirect URI, and the single-use state.
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { oauthClientFor } from "../clients";
import { hashState } from "../oauth";
import type { ProviderId } from "../provider";
import type { PROVIDERS } from "../providers";

/** How long the person has on the provider's consent page. */
export const STATE_TTL_MS = 10 * 60_000;

/** The browser callback every connection uses unless its start named another redirect_uri. */
export function defaultRedirectUri(): string {
  return `${publicUrl()}/api/v1/integrations/callback`;
}

export async function requireClient(orgId: string, provider: (typeof PROVIDERS)[ProviderId]) {
  const client = await oauthClientFor(orgId, provider.id);
  if (client) return client;
  throw new ConflictError(
    `${provider.name} is not configured: set ${provider.settingsPrefix}_CLIENT_ID and ` +
      `${provider.settingsPrefix}_CLIENT_SECRET, or add your organization's OAuth client in the console.`,
  );
}

export const BAD_STATE =
  "The state is wrong, already used or expired (it is valid once, for 10 minutes): start the connection again.";

/** Spends a state (of a new connection or a reconnect): at most one caller ever gets the connection back for it. */
export async function spendState(orgId: string, state: string, connectionId: string) {
  const prisma = await db();
  const spent = await prisma.integrationConnection.updateManyAndReturn({
    where: {
      id: connectionId,
      orgId,
      stateHash: hashState(state),
      stateExpiresAt: { gt: new Date() },
    },
    data: { stateHash: null, stateExpiresAt: null, browserBindingHash: null },
  });
  return spent[0] ?? null;
}
