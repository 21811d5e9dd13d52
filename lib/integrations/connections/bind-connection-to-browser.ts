import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { hashState, randomToken } from "../oauth";
import { getConnection } from "./get-connection";

/** The cookie that binds a console-started flow to its browser (HttpOnly; sent only to the callback). */
export function browserBindingCookie(connectionId: string): string {
  return `memgw_integration_${connectionId}`;
}

/**
 * Binds a connection's pending flow to the browser that started it in the console: returns the nonce for
 * its cookie (browserBindingCookie), of which only the hash is kept.
 */
export async function bindConnectionToBrowser(principal: Principal, id: string): Promise<string> {
  const connection = await getConnection(principal, id);
  const nonce = randomToken();
  const prisma = await db();
  await prisma.integrationConnection.updateMany({
    where: { id: connection.id, orgId: connection.orgId },
    data: { browserBindingHash: hashState(nonce) },
  });
  return nonce;
}
