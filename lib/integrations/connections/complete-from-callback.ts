import { SYSTEM_ACTOR, type Actor } from "@/lib/audit/audit";
import type { MemberPrincipal } from "@/lib/auth/principal";
import { publicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { DomainError, ForbiddenError, InvalidError } from "@/lib/errors";
import type { IntegrationConnection } from "@/lib/generated/prisma/client";
import { hashState } from "../oauth";
import type { ProviderId } from "../provider";
import { PROVIDERS } from "../providers";
import { BAD_STATE, spendState } from "./authorization-flow";
import { finishConnection, markConnection } from "./finish-connection";
import { getConnection } from "./get-connection";

/** What the browser that comes back through the callback brings: its flow cookie and its console session. */
export interface CallbackBrowser {
  /** The nonce of the cookie set when this connection's flow started in this browser, if any. */
  nonce(connectionId: string): string | undefined;
  /** The person signed in to the console in this browser, as a member of that organization, if they are one. */
  member(orgId: string): Promise<MemberPrincipal | null>;
}

const UNBOUND_CALLBACK =
  "Finish connecting in the browser where you started it, signed in to the console as a member of its " +
  "organization who manages integrations; an application that started it through the API completes it " +
  "with POST /integrations/connections/{id}/complete.";

/**
 * The browser's way back from the provider (GET /api/v1/integrations/callback): the state names the
 * connection, and the browser must be the one that started it. A state alone is a bearer value anyone can
 * forward: without this, an attacker could send their consent link to someone else and have that person's
 * account connected to the attacker's namespace. So a flow started in the console completes only with the
 * nonce cookie set then; one started through the API only for a signed-in member of its organization who
 * manages integrations and may see the namespace. Anyone else is refused, and the state is not spent.
 * Returns where to send the person: the organization's integrations page, saying how it went.
 */
export async function completeFromCallback(
  parameters: { code?: string; state?: string; error?: string },
  browser: CallbackBrowser,
) {
  const prisma = await db();
  const pending = parameters.state
    ? await prisma.integrationConnection.findUnique({
        where: { stateHash: hashState(parameters.state) },
        include: { org: { select: { slug: true } } },
      })
    : null;
  if (!pending || !pending.stateExpiresAt || pending.stateExpiresAt <= new Date())
    throw new InvalidError(BAD_STATE, [{ field: "query.state", message: "is not valid" }]);
  if (!(await startedInThisBrowser(pending, browser))) throw new ForbiddenError(UNBOUND_CALLBACK);
  const spent = await spendState(pending.orgId, parameters.state!, pending.id);
  if (!spent) throw new InvalidError(BAD_STATE, [{ field: "query.state", message: "is not valid" }]);
  const page = new URL(`${publicUrl()}/${pending.org.slug}/integrations`);
  const actor = creatorOf(spent);
  try {
    if (parameters.error || !parameters.code) {
      const name = PROVIDERS[spent.provider as ProviderId].name;
      // The provider's error code, as far as it is one (the query string is anyone's to write).
      const code = /^[a-z0-9_.-]{1,64}$/i.test(parameters.error ?? "") ? parameters.error : undefined;
      const why =
        code === "access_denied"
          ? "access was denied"
          : code
            ? `error ${code}`
            : parameters.error
              ? "an error it did not name"
              : "no code came back";
      await markConnection(spent, { lastError: `${name} did not authorize the connection (${why}): connect again.` });
      throw new InvalidError(`${name} did not authorize the connection (${why}).`);
    }
    await finishConnection(spent, parameters.code, actor);
    page.searchParams.set("connected", spent.id);
  } catch (error) {
    // Only what the gateway itself says reaches the page; anything else is logged.
    if (!(error instanceof DomainError))
      console.error(`[memgw] completing ${spent.id} failed:`, (error as Error).message);
    page.searchParams.set("error", error instanceof DomainError ? error.message : "Connecting failed: try again.");
  }
  return page;
}

async function startedInThisBrowser(connection: IntegrationConnection, browser: CallbackBrowser): Promise<boolean> {
  if (connection.browserBindingHash) {
    const nonce = browser.nonce(connection.id);
    return Boolean(nonce) && hashState(nonce!) === connection.browserBindingHash;
  }
  const member = await browser.member(connection.orgId);
  if (!member?.permissions.includes("INTEGRATION_MANAGE")) return false;
  return getConnection(member, connection.id).then(
    () => true,
    () => false,
  );
}

function creatorOf(connection: IntegrationConnection): Actor {
  if (connection.createdByUserId) return { type: "user", id: connection.createdByUserId };
  if (connection.createdByKeyId) return { type: "api_key", id: connection.createdByKeyId };
  return SYSTEM_ACTOR;
}
