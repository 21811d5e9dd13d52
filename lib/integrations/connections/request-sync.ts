import { recordAudit } from "@/lib/audit/audit";
import { actorOf, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { activeJob, enqueueJob } from "@/lib/jobs/queue";
import { assertMayWrite } from "./connection-access";
import { getConnection } from "./get-connection";
import { SYNC_JOB_KIND, syncJobKey } from "./sync-job";

/** Queues a sync now; 409 while one is queued or running, or before the connection is completed. */
export async function requestSync(principal: Principal, id: string) {
  assertMayWrite(principal);
  const connection = await getConnection(principal, id);
  if (connection.status === "pending" || connection.status === "revoked" || !connection.accessTokenEncrypted) {
    throw new ConflictError(
      connection.status === "revoked"
        ? "The provider revoked this connection's access: reconnect it first."
        : "This connection is not authorized yet: complete it first.",
    );
  }
  const queued = await enqueueJob({
    kind: SYNC_JOB_KIND,
    orgId: connection.orgId,
    key: syncJobKey(connection.id),
    payload: { connectionId: connection.id },
  });
  if (!queued) {
    const job = await activeJob(syncJobKey(connection.id));
    throw new ConflictError(
      `A sync of this connection is already ${job?.status === "running" ? "running" : "queued"}.`,
    );
  }
  const prisma = await db();
  await recordAudit(prisma, {
    orgId: connection.orgId,
    actor: actorOf(principal),
    action: "integration.sync",
    targetType: "integration_connection",
    targetId: connection.id,
    details: { provider: connection.provider },
  });
  return connection;
}
