import { db } from "@/lib/db";

/** A key as a page names it: its name, the start and end of its secret, and whether it was revoked. */
export interface KeyName {
  name: string;
  display: string;
  revoked: boolean;
}

/**
 * The names of an organization's keys among `ids` (those of another organization are not found and left out):
 * for pages that hold a key's id (a webhook endpoint made with one) and show people its name.
 */
export async function apiKeyNames(orgId: string, ids: readonly string[]): Promise<Record<string, KeyName>> {
  if (ids.length === 0) return {};
  const prisma = await db();
  const keys = await prisma.apiKey.findMany({
    where: { orgId, id: { in: [...new Set(ids)] } },
    select: { id: true, name: true, display: true, revokedAt: true },
  });
  return Object.fromEntries(
    keys.map((key) => [key.id, { name: key.name, display: key.display, revoked: !!key.revokedAt }]),
  );
}
