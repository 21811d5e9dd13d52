import { db } from "@/lib/db";
import { activeKeyWhere } from "./active-keys";

/** The active keys each member of an organization created, for the members page (what removing them affects). */
export async function activeKeysByCreator(orgId: string) {
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: { orgId, createdById: { not: null }, oauthClientId: null, ...activeKeyWhere() },
    select: { id: true, name: true, display: true, createdById: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const byCreator = new Map<string, { id: string; name: string; display: string }[]>();
  for (const { createdById, ...key } of keys) {
    byCreator.set(createdById!, [...(byCreator.get(createdById!) ?? []), key]);
  }
  return byCreator;
}
