import type { Session } from "next-auth";
import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { Actor } from "@/lib/audit/audit";
import type { Role } from "@/lib/generated/prisma/enums";
import { OrganizationSlug } from "@/lib/orgs/organizations";
import { organizationAccess } from "./session";

export type ActionResult<T = null> = { ok: true; data: T } | { ok: false; error: string; fields?: Record<string, string> };

export interface ConsoleContext {
  orgId: string;
  orgSlug: string;
  orgName: string;
  userId: string;
  email: string;
  role: Role;
  actor: Actor;
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
      return { ok: false, error: `This needs the ${options.roles.join(" or ")} role; you are ${access.membership.role}.` };
    }
    const parsed = options.input.safeParse(raw);
    if (!parsed.success) {
      const fields = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join(".") || "form", issue.message]));
      return { ok: false, error: "Some fields need attention.", fields };
    }
    const context: ConsoleContext = {
      orgId: access.membership.orgId,
      orgSlug: access.membership.org.slug,
      orgName: access.membership.org.name,
      userId: access.membership.userId,
      email: access.membership.user.email,
      role: access.membership.role,
      actor: { type: "user", id: access.membership.userId },
      session: access.session,
    };
    return { ok: true, data: await handler(context, parsed.data) };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      const fields = error.details?.length
        ? Object.fromEntries(error.details.map((detail) => [detail.field, detail.message]))
        : undefined;
      return { ok: false, error: error.message, ...(fields && { fields }) };
    }
    console.error("[memgw] console action failed:", error);
    return { ok: false, error: "Something went wrong on our side. Please try again." };
  }
}
