import { queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { extractEntities, SEASON_START } from "../entities/extract-entities";
import { entityWeight } from "./ranking";
import type { SearchRequest } from "./search-legs";
import { memoryFilter } from "../common/sql";

// The statements of the entity steps of a search (lib/memory/search/search.ts): the entities the query names, the
// memories sharing entities with the best results, and which memories fall within the query's dates. Every
// memory they read passes the request's filter (namespace, the key's and the request's scopes, identity,
// metadata, session, event time, expiry) inside the SQL: an entity link never reaches a memory the search
// could not return, and an entity's weight counts only memories the search may see.

/** A span of event time a query names: [from, to). */
export interface DateRange {
  key: string;
  from: Date;
  to: Date;
}

export interface QueryEntities {
  /** The keys of the names the query mentions (entityKey), dates left out. */
  keys: string[];
  dates: DateRange[];
}

const MAY_NAME_A_DATE =
  /\d|\b(yesterday|today|tonight|tomorrow|ago|last|week|weekend|month|year|spring|summer|fall|autumn|winter|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;

const FRACTION = /(?<![\d/])\d{1,4}\/\d{1,4}(?![\d/])/g;

/** The span of event time a date key covers: a day, a month, a season or a year. */
export function dateRange(key: string): DateRange | null {
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (match) {
    const from = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
    return { key, from, to: new Date(from.getTime() + 86_400_000) };
  }
  match = /^(\d{4})-(\d{2})$/.exec(key);
  if (match)
    return { key, from: new Date(Date.UTC(+match[1], +match[2] - 1)), to: new Date(Date.UTC(+match[1], +match[2])) };
  match = /^(\d{4})-(spring|summer|fall|winter)$/.exec(key);
  if (match) {
    const season = match[2];
    const start = Object.entries(SEASON_START).find(([name]) => name === season)?.[1] ?? 0;
    return { key, from: new Date(Date.UTC(+match[1], start)), to: new Date(Date.UTC(+match[1], start + 3)) };
  }
  match = /^(\d{4})$/.exec(key);
  if (match) return { key, from: new Date(Date.UTC(+match[1], 0)), to: new Date(Date.UTC(+match[1] + 1, 0)) };
  return null;
}

/**
 * The names and dates a query mentions, extracted as a memory's are (a relative date, "last summer", against
 * `now`: the time of the question). Without `namesToo`, only the dates (`keys` empty): recall's entity boost is
 * off, and naming the rest was a millisecond of every recall whose query has a digit.
 */
export function queryEntities(query: string, now: Date, namesToo = true): QueryEntities {
  // Most queries name no date: the extractor (a few hundred microseconds) runs only on one that may.
  if (!namesToo && !MAY_NAME_A_DATE.test(query)) return { keys: [], dates: [] };
  // "MEK 1/2", "Arp2/3": a ratio without a year is not a date (SciFact's claims have eight of them).
  const found = extractEntities(query.replace(FRACTION, " "), { occurredAt: now, datesOnly: !namesToo });
  return {
    keys: found.filter((e) => e.kind !== "date").map((e) => e.key),
    dates: found.flatMap((e) => {
      const range = e.kind === "date" ? dateRange(e.key) : null;
      return range ? [range] : [];
    }),
  };
}

/** Whether a memory happened, or names a date, within one of the query's dates. */
export function withinDates(memory: { occurredAt: Date; dateKeys: string[] }, dates: DateRange[]): boolean {
  return dates.some(
    (d) =>
      (memory.occurredAt >= d.from && memory.occurredAt < d.to) ||
      memory.dateKeys.some((key) => {
        const named = dateRange(key);
        return named !== null && named.from >= d.from && named.to <= d.to;
      }),
  );
}

/**
 * An entity in more than this share of the memories the search may see links too much to say anything (a
 * speaker of a two-person conversation is in half of it): its links are not followed.
 */
export const COMMON_ENTITY_SHARE = 0.05;
/** …unless it is in no more than this many memories. */
const COMMON_ENTITY_MIN = 10;

/** Dates link memories said in one month, not about one thing: the hop follows names only. */
const HOP_KINDS = ["person", "organization", "place", "work", "event", "other"];

const commonFrom = (visible: number) => Math.max(COMMON_ENTITY_MIN, Math.floor(visible * COMMON_ENTITY_SHARE));

/**
 * The query's entities in the namespace (by key or alias) with their weight (entityWeight over the `visible`
 * memories), and the links to them of the `candidates`, and of every memory the search may see for an entity
 * that is not common; with dates, each candidate's event time and the dates it names.
 */
export async function queryEntityEvidence(
  request: SearchRequest,
  wanted: QueryEntities,
  candidates: string[],
  visible: number,
): Promise<{
  gains: Map<string, number>;
  inside: Set<string>;
}> {
  const { orgId, namespaceId } = request;
  const filter = memoryFilter(request, "m");
  const [row] = await queryRows<{
    entities: { id: string; df: number }[] | null;
    links: { memory_id: string; entity_id: string }[] | null;
    dated: { id: string; occurred_at: string; date_keys: string[] }[] | null;
  }>(
    Prisma.sql`WITH q AS MATERIALIZED (
       SELECT e.id FROM entities e
       WHERE e.org_id = ${orgId} AND e.namespace_id = ${namespaceId}
         AND (e.key = ANY(${wanted.keys}::text[]) OR e.aliases && ${wanted.keys}::text[])
     ),
     weighed AS MATERIALIZED (
       SELECT q.id, count(m.id)::int AS df
       FROM q
       LEFT JOIN memory_entities l ON l.namespace_id = ${namespaceId} AND l.entity_id = q.id
       LEFT JOIN memories m ON m.id = l.memory_id AND ${filter}
       GROUP BY q.id
     ),
     linked AS (
       SELECT l.memory_id, l.entity_id
       FROM weighed
       JOIN memory_entities l ON l.namespace_id = ${namespaceId} AND l.entity_id = weighed.id
       JOIN memories m ON m.id = l.memory_id AND ${filter}
       WHERE l.memory_id = ANY(${candidates}::text[]) OR weighed.df <= ${commonFrom(visible)}::int
     ),
     dated AS (
       SELECT m.id, m.occurred_at,
              COALESCE((SELECT array_agg(e.key) FROM memory_entities l
                        JOIN entities e ON e.id = l.entity_id AND e.kind = 'date'
                        WHERE l.namespace_id = ${namespaceId} AND l.memory_id = m.id), '{}') AS date_keys
       FROM memories m
       WHERE ${wanted.dates.length > 0} AND m.id = ANY(${candidates}::text[]) AND ${filter}
     )
     SELECT (SELECT json_agg(weighed) FROM weighed) AS entities, (SELECT json_agg(linked) FROM linked) AS links,
            (SELECT json_agg(dated) FROM dated) AS dated`,
  );
  const weights = new Map((row.entities ?? []).map((e) => [e.id, entityWeight(e.df, visible)]));
  // As the hop: the chance that one of the query's entities the memory mentions makes it relevant.
  const misses = new Map<string, number>();
  for (const link of row.links ?? [])
    misses.set(link.memory_id, (misses.get(link.memory_id) ?? 1) * (1 - (weights.get(link.entity_id) ?? 0)));
  const gains = new Map([...misses].map(([id, miss]) => [id, 1 - miss]));
  const inside = new Set(
    (row.dated ?? [])
      .filter((d) => withinDates({ occurredAt: new Date(d.occurred_at), dateKeys: d.date_keys }, wanted.dates))
      .map((d) => d.id),
  );
  return { gains, inside };
}

/**
 * The second hop: the memories sharing entities with the `seeds` (the best results so far, each with its
 * score over the best one's), each with how strongly: for one seed, the chance that at least one shared
 * entity links them, `1 − Π (1 − weight)` over the shared entities (entityWeight: a rare entity links
 * strongly, a speaker in half the turns hardly, one in more than COMMON_ENTITY_SHARE not at all), times the
 * seed's share of the best score; the strongest seed counts (a seed may gain from another, never from itself).
 */
export async function entityHop(
  request: SearchRequest,
  seeds: { memoryId: string; share: number }[],
  visible: number,
  reach: number,
): Promise<Map<string, number>> {
  const { orgId, namespaceId } = request;
  const filter = memoryFilter(request, "m");
  const seedIds = seeds.map((s) => s.memoryId);
  const rows = await queryRows<{ memory_id: string; seed: string; dfs: number[] }>(
    Prisma.sql`WITH se AS MATERIALIZED (
       SELECT l.memory_id AS seed, l.entity_id FROM memory_entities l
       JOIN entities e ON e.id = l.entity_id AND e.kind = ANY(${HOP_KINDS}::text[])
       WHERE l.org_id = ${orgId} AND l.namespace_id = ${namespaceId} AND l.memory_id = ANY(${seedIds}::text[])
     ),
     df AS MATERIALIZED (
       SELECT x.entity_id, count(m.id)::int AS df
       FROM (SELECT DISTINCT entity_id FROM se) x
       JOIN memory_entities l ON l.namespace_id = ${namespaceId} AND l.entity_id = x.entity_id
       JOIN memories m ON m.id = l.memory_id AND ${filter}
       GROUP BY x.entity_id
       HAVING count(m.id) <= ${commonFrom(visible)}::int
     )
     SELECT l.memory_id, se.seed, array_agg(df.df) AS dfs
     FROM se
     JOIN df ON df.entity_id = se.entity_id
     JOIN memory_entities l ON l.namespace_id = ${namespaceId} AND l.entity_id = se.entity_id
                           AND l.memory_id <> se.seed
     JOIN memories m ON m.id = l.memory_id AND ${filter}
     GROUP BY l.memory_id, se.seed`,
  );
  const share = new Map(seeds.map((s) => [s.memoryId, s.share]));
  const gains = new Map<string, number>();
  for (const row of rows) {
    const strength = 1 - row.dfs.reduce((p, df) => p * (1 - entityWeight(df, visible)), 1);
    const gain = strength * (share.get(row.seed) ?? 0);
    if (gain > (gains.get(row.memory_id) ?? 0)) gains.set(row.memory_id, gain);
  }
  // The strongest links only: a memory linked weakly to a seed cannot rank above what the legs found.
  return new Map([...gains].sort((a, b) => b[1] - a[1]).slice(0, reach));
}
