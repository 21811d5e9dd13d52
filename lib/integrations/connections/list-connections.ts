import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { pageWindow } from "@/lib/http/pagination";
import type { ListConnectionsQuery } from "../schemas";
import { visibleConnections } from "./connection-access";

export async function listConnections(principal: Principal, query: ListConnectionsQuery) {
  const prisma = await db();
  const where = {
    ...visibleConnections(principal),
    ...(query.namespace_id && { namespaceId: query.namespace_id }),
  };
  const [items, total] = await Promise.all([
    prisma.integrationConnection.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
      ...pageWindow(query),
    }),
    prisma.integrationConnection.count({ where }),
  ]);
  return { items, total };
}
