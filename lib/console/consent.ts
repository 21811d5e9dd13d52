import type { MemberPrincipal } from "@/lib/auth/principal";
import { NotFoundError } from "@/lib/errors";
import {
  connectionOffer,
  organizationOfNamespace,
  pendingConnection,
  type ConnectionAccess,
  type PendingConnection,
} from "@/lib/oauth/connections";
import { membershipById } from "@/lib/orgs/members";
import { memberOfOrganization } from "./session";

export type ConsentState =
  | { problem: string }
  | {
      pending: PendingConnection;
      member: MemberPrincipal;
      namespace: { id: string; name: string };
      organization: { name: string };
      allowed: ConnectionAccess[];
    };

const NOT_YOURS =
  "Your account cannot connect this namespace: it does not exist, you may not use it, or its organization " +
  "does not allow the way you signed in. Sign in with an account of the namespace's organization.";

/**
 * What the consent page shows for request `uid` to the person signed in: the request, the namespace and the
 * access they may give, or why there is nothing to approve. A namespace the person may not see reads like
 * one that does not exist.
 */
export async function consentMember(uid: string): Promise<ConsentState> {
  const pending = await pendingConnection(uid);
  if (!pending) {
    return {
      problem: "This authorization request has expired or was already answered. Start again from your MCP client.",
    };
  }
  if (!pending.namespaceId) {
    return { problem: "The client did not name a namespace's MCP endpoint of this gateway: nothing to connect to." };
  }
  const orgId = await organizationOfNamespace(pending.namespaceId);
  const member = orgId ? await memberOfOrganization(orgId) : null;
  if (!member) return { problem: NOT_YOURS };
  try {
    const { namespace, allowed } = await connectionOffer(member, pending);
    if (allowed.length === 0 || !allowed.includes("read")) {
      return { problem: "The client asked for no access you can give (it must ask for mcp:read or mcp:write)." };
    }
    const membership = await membershipById(member.userId, member.orgId);
    return { pending, member, namespace, allowed, organization: { name: membership?.org.name ?? "" } };
  } catch (error) {
    if (error instanceof NotFoundError) return { problem: NOT_YOURS };
    throw error;
  }
}
