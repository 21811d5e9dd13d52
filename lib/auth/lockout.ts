import { db } from "@/lib/db";

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60_000;

/**
 * Password lock-out, kept per email address whether or not an account has it, so that a locked
 * address looks the same either way. Five failures in a row lock it for fifteen minutes.
 */
export async function lockedUntil(email: string): Promise<Date | null> {
  const prisma = await db();
  const row = await prisma.signInLockout.findUnique({ where: { email } });
  return row?.lockedUntil && row.lockedUntil > new Date() ? row.lockedUntil : null;
}

export async function recordFailedSignIn(email: string): Promise<void> {
  const prisma = await db();
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    const row = await tx.signInLockout.findUnique({ where: { email } });
    // After a lock has run out, counting starts again.
    const failures = (row && !(row.lockedUntil && row.lockedUntil <= now) ? row.failures : 0) + 1;
    const lockedUntil = failures >= LOCKOUT_FAILURES ? new Date(now.getTime() + LOCKOUT_MS) : null;
    await tx.signInLockout.upsert({
      where: { email },
      create: { email, failures, lockedUntil, lastFailureAt: now },
      update: { failures, lockedUntil, lastFailureAt: now },
    });
  });
}

export async function clearFailedSignIns(email: string): Promise<void> {
  const prisma = await db();
  await prisma.signInLockout.deleteMany({ where: { email } });
}
