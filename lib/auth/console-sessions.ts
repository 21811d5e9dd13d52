import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { base58 } from "@/lib/ids";

/**
 * How a console session was established; an organization's policy says which may open it. `invitation_link`:
 * an invitation link an owner or admin copied from the Members page. Its copier may have opened it, so the
 * session proves nothing about who holds the address: it opens only the organization that issued it, and
 * cannot give the account a password or an identity provider (a link mailed to the address can).
 */
export type SignInMethod = "password" | "magic_link" | "sso" | "invitation_link";

/** How long a console session lasts without a new sign-in (the cookie's lifetime too). */
export const CONSOLE_SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
// "Last active" is written at most this often, so a busy console does not write on every request.
const LAST_SEEN_EVERY_MS = 60_000;

/** Who is signing in from where: recorded on the session row for the account page's list. */
export interface SessionClient {
  userAgent?: string | null;
  clientAddress?: string | null;
}

/** A new session row at sign-in; its id goes into the session cookie. */
export async function startConsoleSession(userId: string, method: string, client: SessionClient = {}): Promise<string> {
  const prisma = await db();
  const id = `ses_${base58(randomBytes(16))}`;
  // The user's ended sessions are kept a day (a revoked cookie is refused either way), then dropped here.
  const dayAgo = new Date(Date.now() - 24 * 60 * 60_000);
  await prisma.consoleSession.deleteMany({
    where: { userId, OR: [{ expiresAt: { lt: dayAgo } }, { revokedAt: { lt: dayAgo } }] },
  });
  await prisma.consoleSession.create({
    data: {
      id,
      userId,
      method,
      userAgent: client.userAgent?.slice(0, 500) || null,
      clientAddress: client.clientAddress?.slice(0, 100) || null,
      expiresAt: new Date(Date.now() + CONSOLE_SESSION_MAX_AGE_SECONDS * 1000),
    },
  });
  return id;
}

/** Whether a session cookie's session still stands (not signed out, revoked or expired); notes the visit. */
export async function consoleSessionActive(sessionId: unknown, userId: unknown): Promise<boolean> {
  if (typeof sessionId !== "string" || typeof userId !== "string") return false;
  const prisma = await db();
  const session = await prisma.consoleSession.findFirst({ where: { id: sessionId, userId } });
  const now = Date.now();
  if (!session || session.revokedAt || session.expiresAt.getTime() <= now) return false;
  if (now - session.lastSeenAt.getTime() >= LAST_SEEN_EVERY_MS) {
    await prisma.consoleSession.updateMany({ where: { id: sessionId, userId }, data: { lastSeenAt: new Date(now) } });
  }
  return true;
}

/** The user's sessions that still stand, most recently active first. */
export async function listConsoleSessions(userId: string) {
  const prisma = await db();
  return prisma.consoleSession.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { lastSeenAt: "desc" },
    select: { id: true, method: true, userAgent: true, clientAddress: true, createdAt: true, lastSeenAt: true },
  });
}

/** Ends one of the user's sessions (another user's session id changes nothing). */
export async function endConsoleSession(userId: string, sessionId: string): Promise<boolean> {
  const prisma = await db();
  const { count } = await prisma.consoleSession.updateMany({
    where: { id: sessionId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** Ends every session of the user, or every one but `keepSessionId` (after a password change). */
export async function endConsoleSessions(userId: string, keepSessionId?: string): Promise<number> {
  const prisma = await db();
  const { count } = await prisma.consoleSession.updateMany({
    where: { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
    data: { revokedAt: new Date() },
  });
  return count;
}

const BROWSERS = [
  ["Edg/", "Edge"],
  ["Firefox/", "Firefox"],
  ["Chrome/", "Chrome"],
  ["Safari/", "Safari"],
];
const SYSTEMS = [
  ["Android", "Android"],
  ["iPhone", "iOS"],
  ["iPad", "iOS"],
  ["Windows", "Windows"],
  ["Mac OS", "macOS"],
  ["Linux", "Linux"],
];

/** "Chrome on Linux" from a user agent, for people to recognize their devices (never for a decision). */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser = BROWSERS.find(([token]) => userAgent.includes(token))?.[1];
  const system = SYSTEMS.find(([token]) => userAgent.includes(token))?.[1];
  return browser || system ? `${browser ?? "Browser"} on ${system ?? "an unknown system"}` : userAgent.slice(0, 60);
}
