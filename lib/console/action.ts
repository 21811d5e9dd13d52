import type { Session } from "next-auth";
import type { z } from "zod";
import { memberPrincipal, type MemberPrincipal } from "@/lib/auth/principal";
import type { Actor } from "@/lib/audit/audit";
import { fieldMessages, issueDetails } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { bodyFieldName, describeError, INTERNAL_MESSAGE } from "@/lib/http/errors";
import { OrganizationSlug } from "@/lib/orgs/organizations";
import { currentSession, organizationAccess } from "./session";

/** What a console form shows when an action fails: a message, and one per field when fields are at fault. */
export type ActionFailure = { ok: false; error: string; fields?: Record<string, string> };
export type ActionResult<T = null> = { ok: true; data: T } | ActionFailure;

export interface ConsoleContext {
  orgId: string;
  orgSlug: string;
  orgName: string;
  userId: string;
  email: string;
  role: Role;
  actor: Actor;
  /** The person as a principal of the domain's functions: what their role allows, in the namespaces they may see. */
  principal: MemberPrincipal;
  /** How the user signed in: the policy they save must still let this session in. */
  session: Session;
}

/**
 * One console mutation, the console's counterpart of runOperation: re-reads the session, membership and
 * the organization's sign-in policy, checks the role, parses the input with the form's zod schema
 * (the same one the browser validated with) and turns failures into a message for the form.
 * `orgSlug` is as raw as the form: a server action can be called with any arguments, so it is checked
 * before anything else (no session or database read for a slug no organization can have).
 */
export async function runConsoleAction<S extends z.ZodType, T>(
  orgSlug: unknown,
  options: { roles: readonly Role[]; input: S },
  raw: unknown,
  handler: (context: ConsoleContext, input: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  const slug = OrganizationSlug.safeParse(orgSlug);
  if (!slug.success) return { ok: false, error: "Unknown organization." };
  try {
    const access = await organizationAccess(slug.data);
    if (!access) return { ok: false, error: "Your session has ended. Sign in again." };
    if (!access.membership) return { ok: false, error: "You are not a member of this organization." };
    if (access.blocked) return { ok: false, error: "This organization does not allow the way you signed in." };
    if (!options.roles.includes(access.membership.role)) {
      return {
        ok: false,
        error: `This needs the ${options.roles.join(" or ")} role; you are ${access.membership.role}.`,
      };
    }
    const parsed = parseForm(options.input, raw);
    if (!parsed.ok) return parsed;
    const context: ConsoleContext = {
      orgId: access.membership.orgId,
      orgSlug: access.membership.org.slug,
      orgName: access.membership.org.name,
      userId: access.membership.userId,
      email: access.membership.user.email,
      role: access.membership.role,
      actor: { type: "user", id: access.membership.userId },
      principal: memberPrincipal(access.membership),
      session: access.session,
    };
    return { ok: true, data: await handler(context, parsed.data) };
  } catch (error) {
    return formFailure(error);
  }
}

/** A signed-in user's own action (the account page): no organization, only a session that still stands. */
export async function runSignedInAction<S extends z.ZodType, T>(
  input: S,
  raw: unknown,
  handler: (session: Session, input: z.output<S>) => Promise<T>,
): Promise<ActionResult<T>> {
  const session = await currentSession();
  if (!session) return { ok: false, error: "Your session has ended. Sign in again." };
  const parsed = parseForm(input, raw);
  if (!parsed.ok) return parsed;
  try {
    return { ok: true, data: await handler(session, parsed.data) };
  } catch (error) {
    return formFailure(error);
  }
}

/** The form parsed with the schema the browser validated with (raw input is never trusted), or what to fix. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  raw: unknown,
): { ok: true; data: z.output<S> } | ActionFailure {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, error: "Some fields need attention.", fields: fieldMessages(issueDetails(parsed.error.issues)) };
}

/**
 * A thrown error as the form's failure: a refusal keeps its message and field details; anything else is
 * logged and shown as a generic message (a stack or a database message never reaches the browser).
 */
export function formFailure(error: unknown): ActionFailure {
  const refusal = describeError(error);
  // Busy (503 with Retry-After): our own message, which says to try again.
  if (refusal.code === "SERVICE_UNAVAILABLE" && refusal.headers?.["retry-after"]) {
    return { ok: false, error: refusal.message };
  }
  // An upstream or unavailable error may carry a provider's own text: the page gets the generic message.
  if (refusal.status >= 500) {
    if (refusal.code !== "INTERNAL_SERVER_ERROR") console.error("[memgw] console action failed:", error);
    return { ok: false, error: INTERNAL_MESSAGE };
  }
  const fields = refusal.details?.length ? fieldMessages(refusal.details) : undefined;
  return { ok: false, error: refusal.message, ...(fields && { fields }) };
}

/** A failure of an operation run for a form: its fields as the API names them (`body.name`) are the form's (`name`). */
export function asFormFields<T>(result: ActionResult<T>): ActionResult<T> {
  if (result.ok || !result.fields) return result;
  const fields = Object.fromEntries(
    Object.entries(result.fields).map(([field, message]) => [bodyFieldName(field), message]),
  );
  return { ...result, fields };
}
