// Identities that are people of the organization: an OAuth connection (an MCP client a person approved)
// remembers under the person's user id (`usr_…`), which the console can name.
import { db } from "@/lib/db";

export interface IdentityPerson {
  email: string;
  name: string | null;
}

/**
 * The members of `orgId` among `identityIds`, by id. Only this organization's members are named: an app may
 * send any string as an identity, and a user id of someone outside the organization must not reveal their
 * address (the members page already shows the members' addresses to everyone in it).
 */
export async function peopleOfIdentities(orgId: string, identityIds: string[]): Promise<Map<string, IdentityPerson>> {
  const userIds = [...new Set(identityIds.filter((id) => id.startsWith("usr_")))];
  if (userIds.length === 0) return new Map();
  const prisma = await db();
  const members = await prisma.membership.findMany({
    where: { orgId, userId: { in: userIds } },
    select: { user: { select: { id: true, email: true, name: true } } },
  });
  return new Map(members.map(({ user }) => [user.id, { email: user.email, name: user.name }]));
}
