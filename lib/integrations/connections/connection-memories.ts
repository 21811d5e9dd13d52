import type { Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { IntegrationConnection } from "@/lib/generated/prisma/client";

/** The memories a connection brought (its documents, and any a sync stored before it could record them). */
export async function memoriesOfConnection(tx: Tx, connection: IntegrationConnection): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT memory_id AS id FROM integration_documents
               WHERE connection_id = ${connection.id} AND org_id = ${connection.orgId}
               UNION
               SELECT id FROM memories
               WHERE org_id = ${connection.orgId} AND namespace_id = ${connection.namespaceId}
                 AND metadata->>'connection_id' = ${connection.id}`,
  );
  return rows.map((row) => row.id);
}
