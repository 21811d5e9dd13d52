// Requests a key made to a namespace of its own organization that it is not granted (lib/operations/run.ts records
// them): the console's keys page shows them beside the key with the grant that would let it through, since a 404
// alone does not tell a newcomer that the key made before the namespace is the reason.
import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { activityWritten, REFUSED_UNGRANTED } from "./activity";

/** How far back the keys page looks for refusals. */
export const UNGRANTED_REFUSALS_DAYS = 7;

export interface UngrantedRefusal {
  apiKeyId: string;
  namespaceId: string;
  namespaceName: string;
  /** Requests refused within UNGRANTED_REFUSALS_DAYS. */
  count: number;
  lastAt: Date;
}

/**
 * Per key and namespace, the organization's requests refused for want of a grant within the last
 * UNGRANTED_REFUSALS_DAYS days, for namespaces the key is still not granted (a grant made since ends the hint) and
 * that still exist. A partial index holds only such rows, so the page reads none of the organization's traffic.
 */
export async function ungrantedRefusals(orgId: string): Promise<UngrantedRefusal[]> {
  // A refusal answered while other operations ran may still be held (lib/activity/activity.ts).
  await activityWritten();
  const rows = await queryRows<{
    api_key_id: string;
    namespace_id: string;
    namespace_name: string;
    count: number;
    last_at: Date;
  }>(
    Prisma.sql`SELECT a.api_key_id, a.namespace_id, n.name AS namespace_name, count(*)::int AS count,
                      max(a.created_at) AS last_at
               FROM activity_logs a
               JOIN namespaces n ON n.id = a.namespace_id AND n.org_id = ${orgId}
               WHERE a.org_id = ${orgId} AND (a.details->>'refused') = ${REFUSED_UNGRANTED}
                 AND a.created_at > now() - make_interval(days => ${UNGRANTED_REFUSALS_DAYS})
                 AND NOT EXISTS (SELECT 1 FROM namespace_grants g
                                 WHERE g.api_key_id = a.api_key_id AND g.namespace_id = a.namespace_id)
               GROUP BY a.api_key_id, a.namespace_id, n.name
               ORDER BY max(a.created_at) DESC`,
  );
  return rows.map((row) => ({
    apiKeyId: row.api_key_id,
    namespaceId: row.namespace_id,
    namespaceName: row.namespace_name,
    count: row.count,
    lastAt: new Date(row.last_at),
  }));
}
