"use server";
import type { Session } from "next-auth";
import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { changePassword, setPassword } from "@/lib/auth/account";
import { PasswordChangeForm, PasswordSetForm, SessionIdForm } from "@/lib/auth/account-schemas";
import { endConsoleSession, endConsoleSessions } from "@/lib/auth/console-sessions";
import type { ActionResult } from "@/lib/console/action";
import { currentSession } from "@/lib/console/session";

/** One account-page action: a session that still stands, and failures as a message (and field errors) for the page. */
async function accountAction<T>(run: (session: Session) => Promise<T>): Promise<ActionResult<T>> {
  const session = await currentSession();
  if (!session) return { ok: false, error: "Your session has ended. Sign in again." };
  try {
    return { ok: true, data: await run(session) };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fields = Object.fromEntries((error.details ?? []).map((detail) => [detail.field, detail.message]));
      return { ok: false, error: error.message, fields };
    }
    console.error("[memgw] account action failed:", error);
    return { ok: false, error: "Something went wrong on our side. Please try again." };
  }
}

/** The form parsed with the schema the browser validated with, or a 400 with field details. */
function parse<S extends z.ZodType>(schema: S, form: unknown): z.output<S> {
  const parsed = schema.safeParse(form);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join(".") || "form",
    message: issue.message,
  }));
  throw new ApiError("BAD_REQUEST", "Some fields need attention.", details);
}

export async function changePasswordAction(form: unknown): Promise<ActionResult<{ endedSessions: number }>> {
  return accountAction(async (session) => {
    const input = parse(PasswordChangeForm, form);
    return changePassword({
      userId: session.userId,
      currentSessionId: session.sessionId,
      currentPassword: input.current_password,
      newPassword: input.new_password,
    });
  });
}

/** A first password for an account without one. */
export async function setPasswordAction(form: unknown): Promise<ActionResult<{ endedSessions: number }>> {
  return accountAction(async (session) => {
    const input = parse(PasswordSetForm, form);
    const { userId, sessionId } = session;
    return setPassword({ userId, currentSessionId: sessionId, newPassword: input.new_password });
  });
}

/** Ends one session of the signed-in user (this one included: the page then goes to sign-in). */
export async function endSessionAction(form: unknown): Promise<ActionResult<{ current: boolean }>> {
  return accountAction(async (session) => {
    const { session_id } = parse(SessionIdForm, form);
    if (!(await endConsoleSession(session.userId, session_id))) {
      throw new ApiError("NOT_FOUND", "That session has already ended.");
    }
    return { current: session_id === session.sessionId };
  });
}

/** "Sign out everywhere": every session of the user, this one included. */
export async function endAllSessionsAction(): Promise<ActionResult<{ endedSessions: number }>> {
  return accountAction(async (session) => ({ endedSessions: await endConsoleSessions(session.userId) }));
}
