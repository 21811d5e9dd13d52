// A unique index refusing a write: how a promise of uniqueness shows itself when two requests race past the
// checks made before their inserts (those checks give the clear message; the index keeps the promise).

/**
 * Whether `error` is a unique index refusing a write: Prisma's P2002 (a model's create or update), or a raw
 * statement's SQLSTATE 23505 (Prisma's P2010 with the database's code, or the driver's own error).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as { code?: unknown; meta?: { code?: unknown } };
  return code === "P2002" || code === "23505" || (code === "P2010" && meta?.code === "23505");
}

/**
 * A rejection handler for a write (`.catch(explainUniqueViolation(explain))`): when a unique index refused it,
 * runs `explain` — outside the failed write, so it sees what the other request committed — which throws the
 * error a later request would have got from the checks (a ConflictError naming the field). Otherwise, or when
 * `explain` finds nothing (what was in the way is gone again), the error itself is thrown: a refusal of the
 * index is reported as 409 CONFLICT.
 */
export function explainUniqueViolation(explain: () => Promise<unknown>): (error: unknown) => Promise<never> {
  return async (error) => {
    if (isUniqueViolation(error)) await explain();
    throw error;
  };
}
