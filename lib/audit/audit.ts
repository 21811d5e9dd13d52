import { z } from "zod";
import { db, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { newId } from "@/lib/ids";

import { SYSTEM_ACTOR, type Actor } from "./actor";

// In a module of their own, which the CLI's commands import without the database driver this one brings.
export { SYSTEM_ACTOR, type Actor } from "./actor";

export interface AuditEntry {
  orgId: string;
  actor: Actor;
  action: string;
  /** What the target is: the row's type, except `mcp_connection` for a connected MCP client's key. */
  targetType: string;
  targetId: string;
  details?: Record<string, unknown>;
}

/** Written with the transaction client of the change itself, so the entry exists exactly when the change does. */
export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.auditLog.create({
    data: {
      id: newId("aud"),
      orgId: entry.orgId,
      actorType: entry.actor.type,
      actorId: "id" in entry.actor ? entry.actor.id : null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: (entry.details ?? {}) as object,
    },
  });
}

// ---- Reading the audit log back (the console's audit page: owners and admins) ----

export const AUDIT_PAGE_SIZE = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day as typed in a date field (YYYY-MM-DD), a real one (no 2026-02-30). */
const Day = z
  .string()
  .regex(DAY, { message: "Use a date like 2026-01-31.", abort: true })
  .refine(
    (value) => {
      const day = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
    },
    { message: "This date does not exist.", abort: true },
  )
  .refine((value) => value >= "2000-01-01", "Use a date after 2000.");

/** Who to show: `system` (the operator at the command line), `user:<id>` or `api_key:<id>`. */
const ActorFilter = z
  .string()
  .max(120)
  .regex(/^(system|(user|api_key):[A-Za-z0-9_-]{1,100})$/, "Pick someone from the list.");

/**
 * The audit page's filters, from its query string (every value optional; an empty one means no filter).
 * `to` is included: the whole day. A bad value is a message on the page, not a failure.
 */
export const AuditLogQuery = z
  .object({
    actor: ActorFilter.optional(),
    action: z
      .string()
      .max(100)
      .regex(/^[a-z_]+(\.[a-z_]+)*$/, "Pick an action from the list.")
      .optional(),
    from: Day.optional(),
    to: Day.optional(),
    page: z.coerce.number().int("Pages are whole numbers.").min(1).max(100_000).default(1),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: "The start date is after the end date.",
    path: ["to"],
  });
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

export interface AuditLogEntry {
  id: string;
  createdAt: Date;
  actor: Actor;
  /**
   * Who acted, when they still exist: the user's email, "API key <name>", or for a connected MCP client
   * "MCP connection · <client> (by <email of the person who connected it>)"; null for the operator.
   */
  actorLabel: string | null;
  action: string;
  targetType: string;
  targetId: string;
  /** The target's name when it is a key, namespace or user that still exists. */
  targetLabel: string | null;
  details: Record<string, unknown>;
}

function actorOfRow(type: string, id: string | null): Actor {
  if ((type === "user" || type === "api_key") && id) return { type, id };
  return SYSTEM_ACTOR;
}

/**
 * One page of an organization's audit log, newest first, with the filters of `query`. Every condition and
 * every name looked up is bounded by the organization (a key or namespace of another one is never named).
 */
export async function listAuditLog(
  orgId: string,
  query: AuditLogQuery,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<{ entries: AuditLogEntry[]; hasNext: boolean }> {
  const prisma = await db();
  const conditions = [Prisma.sql`l.org_id = ${orgId}`];
  if (query.actor) {
    const [type, id] = query.actor.split(":");
    conditions.push(Prisma.sql`l.actor_type = ${type}`);
    if (id) conditions.push(Prisma.sql`l.actor_id = ${id}`);
  }
  if (query.action) conditions.push(Prisma.sql`l.action = ${query.action}`);
  if (query.from) conditions.push(Prisma.sql`l.created_at >= ${new Date(`${query.from}T00:00:00Z`)}`);
  if (query.to) {
    const end = new Date(`${query.to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(Prisma.sql`l.created_at < ${end}`);
  }
  const rows = await prisma.$queryRaw<
    {
      id: string;
      created_at: Date;
      actor_type: string;
      actor_id: string | null;
      action: string;
      target_type: string;
      target_id: string;
      details: Record<string, unknown>;
      actor_label: string | null;
      target_label: string | null;
      target_is_connection: boolean;
    }[]
  >(
    Prisma.sql`SELECT l.id, l.created_at, l.actor_type, l.actor_id, l.action, l.target_type, l.target_id, l.details,
            CASE l.actor_type WHEN 'user' THEN au.email
              WHEN 'api_key' THEN CASE WHEN ak.oauth_client_id IS NULL THEN 'API key ' || ak.name
                ELSE 'MCP connection · ' || ak.name || COALESCE(' (by ' || akc.email || ')', '') END
            END AS actor_label,
            CASE l.target_type WHEN 'user' THEN tu.email WHEN 'api_key' THEN tk.name WHEN 'namespace' THEN tn.name
            END AS target_label,
            tk.oauth_client_id IS NOT NULL AS target_is_connection
     FROM audit_logs l
     LEFT JOIN users au ON l.actor_type = 'user' AND au.id = l.actor_id
     LEFT JOIN api_keys ak ON l.actor_type = 'api_key' AND ak.id = l.actor_id AND ak.org_id = l.org_id
     LEFT JOIN users akc ON akc.id = ak.created_by_id
     LEFT JOIN users tu ON l.target_type = 'user' AND tu.id = l.target_id
     LEFT JOIN api_keys tk ON l.target_type = 'api_key' AND tk.id = l.target_id AND tk.org_id = l.org_id
     LEFT JOIN namespaces tn ON l.target_type = 'namespace' AND tn.id = l.target_id AND tn.org_id = l.org_id
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY l.created_at DESC, l.id DESC
     LIMIT ${pageSize + 1} OFFSET ${(query.page - 1) * pageSize}`,
  );
  return {
    entries: rows.slice(0, pageSize).map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      actor: actorOfRow(row.actor_type, row.actor_id),
      actorLabel: row.actor_label,
      action: row.action,
      // A connected MCP client's key is shown as the connection it is (its rows say api_key).
      targetType: row.target_is_connection ? "mcp_connection" : row.target_type,
      targetId: row.target_id,
      targetLabel: row.target_label,
      details: row.details ?? {},
    })),
    hasNext: rows.length > pageSize,
  };
}

/** The actions that appear in an organization's audit log: the action filter's choices. */
export async function auditActions(orgId: string): Promise<string[]> {
  const prisma = await db();
  const rows = await prisma.auditLog.findMany({
    where: { orgId },
    distinct: ["action"],
    select: { action: true },
    orderBy: { action: "asc" },
  });
  return rows.map((row) => row.action);
}
