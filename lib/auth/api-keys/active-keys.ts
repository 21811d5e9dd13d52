/** Keys that still authenticate (as far as the key row alone says), as a Prisma filter. */
export const activeKeyWhere = () => ({ revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });
