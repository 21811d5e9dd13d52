import { namespaceAccess, type Principal } from "@/lib/auth/principal";
import { parseScopes, type Scopes } from "@/lib/auth/scopes";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ForbiddenError } from "@/lib/errors";

/**
 * The scopes an operation runs under: the key's own pairs, plus the request's. A key with scopes sees
 * only memories carrying all of its pairs and tags what it writes with them; a request may narrow
 * further but never contradict the key (403).
 */
export function effectiveScopes(keyScopes: Scopes, requested: Scopes | undefined): Scopes {
  for (const [name, value] of Object.entries(requested ?? {})) {
    if (Object.hasOwn(keyScopes, name) && keyScopes[name] !== value) {
      throw new ForbiddenError(
        `This API key is limited to scope ${name}=${keyScopes[name]}; the request asked for ${name}=${value}.`,
      );
    }
  }
  return { ...requested, ...keyScopes };
}

/** One scope pair in use: the memories carrying it in each namespace the viewer may see, and the keys bound to it. */
export interface ScopePairUsage {
  name: string;
  value: string;
  memories: number;
  namespaces: { id: string; name: string; memories: number }[];
  keys: { id: string; name: string; display: string; scopes: Scopes; createdById: string | null }[];
}

/**
 * The organization's scope pairs, for the scopes page: those memories carry, counted per namespace (only
 * the namespaces `principal` may see: a member never learns what is in the others), and those the active
 * keys are bound to (a key is bound to every pair of its scopes), sorted by name then value.
 * One aggregate: memories are first grouped by their whole scopes object as text (few distinct ones per
 * namespace; grouping by the text is a third cheaper than by the jsonb), and only those groups are split
 * into pairs. About 0.6 s for 100,000 memories on the embedded database, against 1 s for splitting
 * every memory's scopes (jsonb_each_text per row).
 */
export async function scopeUsage(principal: Principal): Promise<ScopePairUsage[]> {
  const prisma = await db();
  const [namespaces, keys] = await Promise.all([
    prisma.namespace.findMany({ where: namespaceAccess(principal), select: { id: true, name: true } }),
    prisma.apiKey.findMany({
      where: { orgId: principal.orgId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      select: { id: true, name: true, display: true, scopes: true, createdById: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  const counts =
    namespaces.length === 0
      ? []
      : await prisma.$queryRaw<{ namespace_id: string; name: string; value: string; memories: number }[]>(
          Prisma.sql`SELECT g.namespace_id, e.key AS name, e.value, sum(g.n)::int AS memories
           FROM (SELECT namespace_id, scopes::text AS scopes, count(*) AS n FROM memories
                 WHERE org_id = ${principal.orgId} AND namespace_id = ANY(${namespaces.map((ns) => ns.id)}::text[])
                   AND scopes <> '{}'::jsonb
                   AND (expires_at IS NULL OR expires_at > now())
                 GROUP BY namespace_id, scopes::text) g
           CROSS JOIN LATERAL jsonb_each_text(g.scopes::jsonb) e
           GROUP BY g.namespace_id, e.key, e.value`,
        );
  const names = new Map(namespaces.map((ns) => [ns.id, ns.name]));
  const pairs = new Map<string, ScopePairUsage>();
  const pairOf = (name: string, value: string) => {
    const id = JSON.stringify([name, value]);
    let pair = pairs.get(id);
    if (!pair) pairs.set(id, (pair = { name, value, memories: 0, namespaces: [], keys: [] }));
    return pair;
  };
  for (const row of counts) {
    const pair = pairOf(row.name, row.value);
    pair.memories += row.memories;
    pair.namespaces.push({
      id: row.namespace_id,
      name: names.get(row.namespace_id) ?? row.namespace_id,
      memories: row.memories,
    });
  }
  for (const key of keys) {
    const scopes = parseScopes(key.scopes);
    for (const [name, value] of Object.entries(scopes)) pairOf(name, value).keys.push({ ...key, scopes });
  }
  for (const pair of pairs.values()) pair.namespaces.sort((a, b) => a.name.localeCompare(b.name));
  return [...pairs.values()].sort((a, b) => a.name.localeCompare(b.name) || a.value.localeCompare(b.value));
}
