// What holds of one identity: GET /api/v1/identities/{id}/profile, the MCP tool get_profile and the console's
// identity page. Its current facts (one per slot: a fact_key, or statements one of which replaced another), its
// most recent memories, the entities it talks about and the timeline of what replaced what.
import { z } from "zod";
import type { ActivityNote } from "@/lib/activity/activity";
import type { Principal } from "@/lib/auth/principal";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { named } from "@/lib/validation/named";
import { resolveTarget } from "@/lib/namespaces/namespaces";
import { TargetId } from "@/lib/validation/target";
import { identityEntities } from "../entities/identity-entities";
import { EntitySchema } from "../entities/entity-json";
import { Instant } from "../common/instant";
import { notExpiredSql } from "../common/sql";
import { SupersessionSchema, type SupersessionJson } from "../common/validity-fields";

/** How many recent memories, entities and changes a profile shows. */
const RECENT = 10;
const ENTITIES = 10;
const CHANGES = 50;

export const IdentityProfileQuery = z.strictObject({
  namespace_id: TargetId.describe("the namespace whose memories make the profile"),
  as_of: Instant.optional().describe("the profile as it was then (default: now)"),
});

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const IdentityProfileSchema = z.object({
  identity_id: z.string(),
  namespace_id: z.string(),
  as_of: Timestamp.describe("the time the profile holds at"),
  facts: z
    .array(
      z.object({
        memory_id: z.string(),
        content: z.string(),
        fact_key: z.string().nullable().describe("the slot's name; null for a slot found by inference"),
        since: Timestamp.describe("its valid_at: since when it holds"),
        supersedes: z.array(z.string()).describe("the memories of the slot it replaced"),
      }),
    )
    .describe("what holds now, one per slot (a fact_key, or statements of which one replaced another), newest first"),
  recent: z
    .array(z.object({ memory_id: z.string(), content: z.string(), occurred_at: Timestamp }))
    .describe(`its ${RECENT} most recent memories`),
  entities: z.array(EntitySchema).describe(`the ${ENTITIES} entities its memories mention most`),
  changes: z
    .array(
      z.object({
        at: Timestamp.describe("when the replaced memory stopped holding"),
        replaced: z.object({ memory_id: z.string(), content: z.string() }),
        by: z.object({ memory_id: z.string(), content: z.string() }),
        supersession: SupersessionSchema,
      }),
    )
    .describe(`the timeline of what replaced what, newest first (at most ${CHANGES})`),
});
export type IdentityProfileJson = z.infer<typeof IdentityProfileSchema>;

/**
 * The profile of `identityId` in one namespace, at `asOf` (ISO; default now), from the memories the principal may
 * see: its scopes, not expired; a change is shown only when both memories are visible. An identity without a
 * visible memory has an empty profile, not a 404 (identities are not stored as such). 404 for a namespace the
 * principal may not use.
 */
export async function identityProfile(
  principal: Principal,
  input: { identityId: string; namespaceId: string; asOf?: string },
  activity: ActivityNote = {},
): Promise<IdentityProfileJson> {
  const namespace = await resolveTarget(principal, { namespace_id: input.namespaceId });
  activity.namespaceId = namespace.id;
  activity.identityId = input.identityId;
  const at = input.asOf ?? new Date().toISOString();
  const visible = (alias: string) => {
    const a = Prisma.raw(alias);
    return Prisma.sql`${a}.org_id = ${principal.orgId} AND ${a}.namespace_id = ${namespace.id}
      AND ${a}.identity_id = ${input.identityId} AND ${Prisma.raw(notExpiredSql(alias))}
      AND ${a}.scopes @> ${JSON.stringify(principal.scopes)}::jsonb`;
  };
  const holds = Prisma.sql`m.valid_at <= ${at}::timestamptz
    AND (m.invalid_at IS NULL OR m.invalid_at > ${at}::timestamptz)`;
  const prisma = await db();
  const [facts, recent, changes, entities] = await Promise.all([
    prisma.$queryRaw<{ id: string; content: string; fact_key: string | null; valid_at: Date; supersedes: string[] }[]>(
      Prisma.sql`SELECT DISTINCT ON (COALESCE(m.fact_key, m.id)) m.id, m.content, m.fact_key, m.valid_at,
                        ARRAY(SELECT s.id FROM memories s WHERE ${visible("s")} AND s.superseded_by = m.id
                              ORDER BY s.valid_at, s.id) AS supersedes
                 FROM memories m
                 WHERE ${visible("m")} AND ${holds}
                   AND (m.fact_key IS NOT NULL
                        OR EXISTS (SELECT 1 FROM memories s WHERE ${visible("s")} AND s.superseded_by = m.id))
                 ORDER BY COALESCE(m.fact_key, m.id), m.valid_at DESC, m.created_at DESC`,
    ),
    prisma.$queryRaw<{ id: string; content: string; occurred_at: Date }[]>(
      Prisma.sql`SELECT m.id, m.content, m.occurred_at FROM memories m WHERE ${visible("m")}
                 AND m.valid_at <= ${at}::timestamptz ORDER BY m.occurred_at DESC, m.id LIMIT ${RECENT}`,
    ),
    prisma.$queryRaw<
      { at: Date; id: string; content: string; by_id: string; by_content: string; supersession: SupersessionJson }[]
    >(
      Prisma.sql`SELECT m.invalid_at AS at, m.id, m.content, r.id AS by_id, r.content AS by_content, m.supersession
                 FROM memories m JOIN memories r ON r.org_id = m.org_id AND r.id = m.superseded_by AND ${visible("r")}
                 WHERE ${visible("m")} AND m.invalid_at <= ${at}::timestamptz
                 ORDER BY m.invalid_at DESC, m.id LIMIT ${CHANGES}`,
    ),
    identityEntities(principal, { identityId: input.identityId, namespaceId: namespace.id, limit: ENTITIES }),
  ]);
  return {
    identity_id: input.identityId,
    namespace_id: namespace.id,
    as_of: new Date(at).toISOString(),
    facts: facts
      .sort((a, b) => b.valid_at.getTime() - a.valid_at.getTime())
      .map((f) => ({
        memory_id: f.id,
        content: f.content,
        fact_key: f.fact_key,
        since: f.valid_at.toISOString(),
        supersedes: f.supersedes,
      })),
    recent: recent.map((r) => ({ memory_id: r.id, content: r.content, occurred_at: r.occurred_at.toISOString() })),
    entities: entities.entities,
    changes: changes.map((c) => ({
      at: c.at.toISOString(),
      replaced: { memory_id: c.id, content: c.content },
      by: { memory_id: c.by_id, content: c.by_content },
      supersession: c.supersession,
    })),
  };
}

named(IdentityProfileSchema, "IdentityProfile");
