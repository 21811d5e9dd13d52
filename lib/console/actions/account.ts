"use server";
// The account page's actions: the signed-in user's password and console sessions.
import { z } from "zod";
import { changePassword, setPassword } from "@/lib/auth/account";
import { PasswordChangeForm, PasswordSetForm, SessionIdForm } from "@/lib/auth/account-schemas";
import { endConsoleSession, endConsoleSessions } from "@/lib/auth/console-sessions";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { runSignedInAction, type ActionResult } from "@/lib/console/action";

export async function changePasswordAction(form: unknown): Promise<ActionResult<{ endedSessions: number }>> {
  return runSignedInAction(PasswordChangeForm, form, (session, input) =>
    changePassword({
      userId: session.userId,
      currentSessionId: session.sessionId,
      currentPassword: input.current_password,
      newPassword: input.new_password,
    }),
  );
}

/**
 * A first password for an account without one. Not from a session of a copied invitation link: whoever copied
 * it may have opened it, and would keep the account; a link mailed to the address proves who holds it.
 */
export async function setPasswordAction(form: unknown): Promise<ActionResult<{ endedSessions: number }>> {
  return runSignedInAction(PasswordSetForm, form, (session, input) => {
    if (session.method === "invitation_link") {
      throw new ForbiddenError(
        "A session opened by a copied invitation link cannot set a password. Sign in with a link mailed to " +
          "you (Sign in → email me a link), then set it.",
      );
    }
    return setPassword({
      userId: session.userId,
      currentSessionId: session.sessionId,
      newPassword: input.new_password,
    });
  });
}

/** Ends one session of the signed-in user (this one included: the page then goes to sign-in). */
export async function endSessionAction(form: unknown): Promise<ActionResult<{ current: boolean }>> {
  return runSignedInAction(SessionIdForm, form, async (session, { session_id }) => {
    if (!(await endConsoleSession(session.userId, session_id))) {
      throw new NotFoundError("That session has already ended.");
    }
    return { current: session_id === session.sessionId };
  });
}

/** "Sign out everywhere": every session of the user, this one included. */
export async function endAllSessionsAction(): Promise<ActionResult<{ endedSessions: number }>> {
  return runSignedInAction(z.unknown(), undefined, async (session) => ({
    endedSessions: await endConsoleSessions(session.userId),
  }));
}
