import { actorOf, type Principal } from "@/lib/auth/principal";
import { InvalidError } from "@/lib/errors";
import type { CompleteConnectionBody } from "../schemas";
import { BAD_STATE, spendState } from "./authorization-flow";
import { assertMayWrite } from "./connection-access";
import { finishConnection } from "./finish-connection";
import { getConnection } from "./get-connection";

/**
 * Completes the flow through the API: the state must be this connection's, of the principal's
 * organization, unused and unexpired. It is spent before the code is exchanged, so it never works twice.
 */
export async function completeConnection(principal: Principal, id: string, body: CompleteConnectionBody) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  const spent = await spendState(connection.orgId, body.state, connection.id);
  if (!spent) throw new InvalidError(BAD_STATE, [{ field: "body.state", message: "is not valid for this connection" }]);
  return finishConnection(spent, body.code, actorOf(principal));
}
