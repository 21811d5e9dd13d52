import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { visibleConnections } from "./connection-access";

export async function getConnection(principal: Principal, id: string) {
  const prisma = await db();
  const connection = await prisma.integrationConnection.findFirst({ where: { id, ...visibleConnections(principal) } });
  if (!connection) throw notFound(`Integration connection ${id}`);
  return connection;
}
