import { newId } from "@/lib/ids";
import type { Tx } from "@/lib/db";

/** Who made a change: an API key, a console user, or the operator at the command line. */
export type Actor = { type: "api_key"; id: string } | { type: "user"; id: string } | { type: "system" };

export const SYSTEM_ACTOR: Actor = { type: "system" };

export interface AuditEntry {
  orgId: string;
  actor: Actor;
  action: string;
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
}

/** Written with the transaction client of the change itself, so the entry exists exactly when the change does. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      id: newId("aud"),
      orgId: entry.orgId,
      actorType: entry.actor.type,
      actorId: "id" in entry.actor ? entry.actor.id : null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: (entry.details ?? {}) as object,
    },
  });
}
