import type { Principal } from "@/lib/auth/principal";
import type { Tx } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Reserves the session's next `count` positions at the end of a conversation in one statement: concurrent
 * appends to one session get distinct ranges, each in the order of its messages. A key with scopes appends
 * only to a session whose turns it may all see: numbered after turns it may not see, its first position
 * would tell it they exist and how many there are (ConflictError instead; a key without scopes sees every
 * turn).
 */
export async function reservePositions(
  tx: Tx,
  principal: Pick<Principal, "orgId" | "scopes">,
  namespaceId: string,
  sessionId: string,
  count: number,
) {
  if (Object.keys(principal.scopes).length > 0) {
    const hidden = await tx.$queryRaw<unknown[]>(
      Prisma.sql`SELECT 1 FROM memories
                 WHERE org_id = ${principal.orgId} AND namespace_id = ${namespaceId} AND session_id = ${sessionId}
                   AND NOT (scopes @> ${JSON.stringify(principal.scopes)}::jsonb)
                 LIMIT 1`,
    );
    if (hidden.length > 0) {
      throw new ConflictError(
        `session_id "${sessionId}" holds turns outside this key's scopes: continue this conversation ` +
          "under another session_id.",
        [{ field: "body.session_id", message: "a session with turns outside the key's scopes" }],
      );
    }
  }
  const [row] = await tx.$queryRaw<{ first: number }[]>(
    Prisma.sql`INSERT INTO conversation_sessions (namespace_id, session_id, org_id, next_position)
               VALUES (${namespaceId}, ${sessionId}, ${principal.orgId}, ${count})
               ON CONFLICT (namespace_id, session_id) DO UPDATE
                 SET next_position = conversation_sessions.next_position + ${count}
               RETURNING next_position - ${count} AS first`,
  );
  return { first: Number(row.first) };
}
