import type { ActivityNote } from "@/lib/activity/activity";
import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";

/** One memory, if it is in a namespace granted to the principal and carries all of the principal's scopes. */
export async function getMemory(principal: Principal, id: string, activity: ActivityNote = {}) {
  const prisma = await db();
  const memory = await prisma.memory.findFirst({
    where: {
      id,
      orgId: principal.orgId,
      namespace: namespaceAccess(principal),
      AND: Object.entries(principal.scopes).map(([name, value]) => ({ scopes: { path: [name], equals: value } })),
      OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }],
    },
  });
  if (!memory) throw notFound(`Memory ${id}`);
  activity.namespaceId = memory.namespaceId;
  activity.identityId = memory.identityId;
  return memory;
}
