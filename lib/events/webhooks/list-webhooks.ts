import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { pageWindow, type PaginationQuery } from "@/lib/http/pagination";
import { visibleEndpoints } from "./webhook-access";

export async function listWebhooks(principal: Principal, query: PaginationQuery) {
  const prisma = await db();
  const where = visibleEndpoints(principal);
  const [items, total] = await Promise.all([
    prisma.webhookEndpoint.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], ...pageWindow(query) }),
    prisma.webhookEndpoint.count({ where }),
  ]);
  return { items, total };
}
