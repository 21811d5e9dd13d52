import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db, type Tx } from "@/lib/db";
import { searchChunks } from "@/lib/memory/search/search";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { recallContents, rememberAll, storedCounts } from "../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

const SALES = "The sales team's quarterly target is 2 million euros.";
const SALES_EU = "The sales team in Europe meets every Tuesday in Paris.";
const ENG = "The engineering team's quarterly target is shipping the new search.";
const OPEN = "Everyone's quarterly target review happens in the last week.";

async function scopedSetup(scopes: Record<string, string>) {
  const { org, key: admin } = await createTenant();
  const ns = await createNamespace(admin);
  const memories = await rememberAll(admin, ns.id, [
    { content: SALES, scopes: { team: "sales" } },
    { content: SALES_EU, scopes: { team: "sales", region: "eu" } },
    { content: ENG, scopes: { team: "eng" } },
    { content: OPEN },
  ]);
  const scoped = await createKey(org.id, {
    permissions: ["NAMESPACE_READ", "NAMESPACE_WRITE"],
    scopes,
    namespaceIds: [ns.id],
  });
  const byContent = Object.fromEntries(memories.map((m) => [m.content, m.id]));
  return { admin, ns, scoped: scoped.secret, byContent };
}

test("a scoped key recalls only memories carrying all of its scope pairs", async () => {
  const { ns, scoped } = await scopedSetup({ team: "sales" });
  expect((await recallContents(scoped, { namespace_id: ns.id, query: "quarterly target team" })).sort()).toEqual(
    [SALES, SALES_EU].sort(),
  );
  const { ns: ns2, scoped: both } = await scopedSetup({ team: "sales", region: "eu" });
  expect(await recallContents(both, { namespace_id: ns2.id, query: "quarterly target team" })).toEqual([SALES_EU]);
});

test("a scoped key cannot read a memory outside its scopes by id", async () => {
  const { scoped, byContent } = await scopedSetup({ team: "sales" });
  expect((await api("GET", `/memories/${byContent[SALES]}`, { key: scoped })).status).toBe(200);
  expect((await api("GET", `/memories/${byContent[ENG]}`, { key: scoped })).status).toBe(404);
  expect((await api("GET", `/memories/${byContent[OPEN]}`, { key: scoped })).status).toBe(404);
});

test("what a scoped key remembers carries its scopes, plus any the request adds", async () => {
  const { admin, ns, scoped } = await scopedSetup({ team: "sales" });
  const plain = await api("POST", "/remember", {
    key: scoped,
    body: { namespace_id: ns.id, content: "Sales offsite is in May." },
  });
  expect(plain.body.data.scopes).toEqual({ team: "sales" });
  const narrowed = await api("POST", "/remember", {
    key: scoped,
    body: { namespace_id: ns.id, content: "EU pipeline review on Friday.", scopes: { region: "eu", team: "sales" } },
  });
  expect(narrowed.body.data.scopes).toEqual({ team: "sales", region: "eu" });
  const seenByAdmin = await api("POST", "/recall", {
    key: admin,
    body: { namespace_id: ns.id, query: "offsite in May", scopes: { team: "sales" } },
  });
  expect(seenByAdmin.body.data[0].content).toBe("Sales offsite is in May.");
});

test("a request scope that contradicts the key's → 403 on every operation, nothing changes", async () => {
  const { ns, scoped } = await scopedSetup({ team: "sales" });
  const before = await storedCounts(ns.id);
  const contradicting = { team: "eng" };
  for (const [path, body] of [
    ["/remember", { content: "x", scopes: contradicting }],
    ["/remember", { memories: [{ content: "ok" }, { content: "x", scopes: contradicting }] }],
    ["/recall", { query: "target", scopes: contradicting }],
    ["/forget", { scopes: contradicting }],
  ] as const) {
    const response = await api("POST", path, { key: scoped, body: { namespace_id: ns.id, ...body } });
    expect(response.status, path).toBe(403);
    expect(response.body.error.code).toBe("FORBIDDEN");
    expect(response.body.error.message).toContain("team=sales");
  }
  expect(await storedCounts(ns.id)).toEqual(before);
});

test("a scoped key forgets only inside its scopes, even with all: true", async () => {
  const { admin, ns, scoped } = await scopedSetup({ team: "sales" });
  const response = await api("POST", "/forget", { key: scoped, body: { namespace_id: ns.id, all: true } });
  expect(response.body.data.deleted).toBe(2);
  expect((await recallContents(admin, { namespace_id: ns.id, query: "quarterly target team" })).sort()).toEqual(
    [ENG, OPEN].sort(),
  );
});

describe("namespace-wide operations are refused to keys with scopes", () => {
  /** A key with scopes and NAMESPACE_MANAGE, as could be created before such keys were refused. */
  async function scopedManager() {
    const { org, key: admin } = await createTenant();
    const ns = await createNamespace(admin);
    await rememberAll(admin, ns.id, [
      { content: SALES, scopes: { team: "sales" } },
      { content: ENG, scopes: { team: "eng" } },
    ]);
    const manager = await createKey(org.id, { permissions: [...PERMISSIONS], namespaceIds: [ns.id] });
    const prisma = await db();
    await prisma.apiKey.update({ where: { id: manager.id }, data: { scopes: { team: "sales" } } });
    const other = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    const grant = await prisma.namespaceGrant.findFirstOrThrow({ where: { namespaceId: ns.id, apiKeyId: other.id } });
    return { org, admin, ns, manager, other, grant };
  }

  test("creating, changing, deleting a namespace and its grants → 403 saying why; nothing changes", async () => {
    const { org, admin, ns, manager, other, grant } = await scopedManager();
    const prisma = await db();
    const snapshot = async () => ({
      namespaces: await prisma.namespace.findMany({ where: { orgId: org.id }, orderBy: { id: "asc" } }),
      grants: await prisma.namespaceGrant.findMany({ where: { orgId: org.id }, orderBy: { id: "asc" } }),
      stored: await storedCounts(ns.id),
    });
    const before = await snapshot();
    const requests: [string, string, unknown?][] = [
      ["POST", "/namespaces", { name: "made-by-a-scoped-key" }],
      ["PATCH", `/namespaces/${ns.id}`, { name: "renamed" }],
      ["DELETE", `/namespaces/${ns.id}`],
      ["GET", `/namespaces/${ns.id}/grants`],
      ["POST", `/namespaces/${ns.id}/grants`, { api_key_id: manager.id }],
      ["DELETE", `/namespaces/${ns.id}/grants/${grant.id}`],
    ];
    for (const [method, path, body] of requests) {
      const response = await api(method, path, { key: manager.secret, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe("FORBIDDEN");
      expect(response.body.error.message).toContain("limited to scopes team=sales");
      expect(response.body.error.message).toContain("only a key without scopes");
    }
    expect(await snapshot()).toEqual(before);
    // Reading the namespace row it works in stays allowed, and so does the same operation by a key without scopes.
    expect((await api("GET", `/namespaces/${ns.id}`, { key: manager.secret })).status).toBe(200);
    expect((await api("DELETE", `/namespaces/${ns.id}/grants/${grant.id}`, { key: admin })).status).toBe(200);
    expect(other.id).toBeTruthy();
  });

  test("the domain refuses them too, whoever calls it (console, command line, MCP)", async () => {
    const { ns, manager } = await scopedManager();
    const { authenticateApiKey } = await import("@/lib/auth/api-keys/authenticate-api-key");
    const principal = await authenticateApiKey(`Bearer ${manager.secret}`);
    const namespaces = await import("@/lib/namespaces/namespaces");
    const { createGrant, createNamespace: create, deleteNamespace, listGrants, updateNamespace } = namespaces;
    for (const call of [
      () => create(principal, { name: "x" }),
      () => updateNamespace(principal, ns.id, { name: "y" }),
      () => deleteNamespace(principal, ns.id),
      () => listGrants(principal, ns.id),
      () => createGrant(principal, ns.id, { api_key_id: manager.id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ name: "ForbiddenError" });
    }
    expect((await storedCounts(ns.id)).memories).toBe(2);
  });

  test("a key with scopes and NAMESPACE_MANAGE is not created: 400 naming the permissions field", async () => {
    const { org } = await createTenant();
    const { createApiKey } = await import("@/lib/auth/api-keys/create-api-key");
    const attempt = createApiKey(
      {
        orgId: org.id,
        name: "scoped manager",
        permissions: ["NAMESPACE_READ", "NAMESPACE_MANAGE"],
        scopes: { team: "s" },
      },
      SYSTEM_ACTOR,
    );
    await expect(attempt).rejects.toMatchObject({ name: "InvalidError", details: [{ field: "permissions" }] });
    const prisma = await db();
    expect(await prisma.apiKey.count({ where: { orgId: org.id, name: "scoped manager" } })).toBe(0);
  });
});

describe("BM25 statistics of a scoped key cover only what it may see", () => {
  const TEAM_A = [
    "The quarterly planning meeting moved to Thursday afternoon.",
    "Our quarterly revenue grew thanks to the zebra campaign launch.",
    "Planning notes: hire two engineers before the next quarter.",
  ];
  // Team B's memories share words with A's and add a word ("zebra") and lengths of their own.
  const TEAM_B = [
    "Zebra zebra zebra: the code name of team B's secret project.",
    "Team B's zebra review found the planning too optimistic, quarterly targets are at risk of slipping.",
    "The zebra offsite is in Lisbon.",
    "Quarterly planning for zebra happens every Monday morning with the whole team present in the room.",
  ];

  const scoreOf = (match: { score: number }) => match.score;

  async function scoresOf(key: string, namespaceId: string, query: string) {
    const response = await api("POST", "/recall", { key, body: { namespace_id: namespaceId, query, top_k: 20 } });
    expect(response.status).toBe(200);
    return (response.body.data as { content: string; score: number }[]).map((m) => [m.content, m.score]).sort();
  }

  test("a key scoped to A scores exactly as in a namespace holding only A's memories", async () => {
    const { org, key: admin } = await createTenant();
    const shared = await createNamespace(admin);
    const aloneA = await createNamespace(admin);
    await rememberAll(admin, shared.id, [
      ...TEAM_A.map((content) => ({ content, scopes: { team: "a" } })),
      ...TEAM_B.map((content) => ({ content, scopes: { team: "b" } })),
      { content: "An unscoped zebra note about quarterly planning." },
    ]);
    await rememberAll(
      admin,
      aloneA.id,
      TEAM_A.map((content) => ({ content, scopes: { team: "a" } })),
    );
    const teamA = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [shared.id, aloneA.id] });

    for (const query of ["zebra", "quarterly planning zebra", "revenue launch"]) {
      const inShared = await scoresOf(teamA.secret, shared.id, query);
      expect(inShared.length, query).toBeGreaterThan(0);
      expect(inShared, query).toEqual(await scoresOf(teamA.secret, aloneA.id, query));
      // The same request by a key that sees all of the shared namespace is scored over all of it.
      expect(inShared, query).toEqual(await scoresOf(admin, aloneA.id, query));
    }
    // Request scopes only filter: a key without scopes already sees every scope, so its statistics stay namespace-wide.
    const body = { namespace_id: shared.id, query: "zebra", scopes: { team: "a" } };
    const narrowed = (await api("POST", "/recall", { key: admin, body })).body.data.map(scoreOf);
    expect(narrowed).not.toEqual((await scoresOf(teamA.secret, shared.id, "zebra")).map((m) => m[1]));
  });

  test("the scope statistics follow remember and forget, and the migration's backfill rebuilds them", async () => {
    const { org, key: admin } = await createTenant();
    const ns = await createNamespace(admin);
    await rememberAll(admin, ns.id, [
      ...TEAM_A.map((content) => ({ content, scopes: { team: "a" } })),
      ...TEAM_B.map((content, i) => ({ content, scopes: i % 2 ? { team: "b" } : { team: "b", region: "eu" } })),
      { content: "Nothing scoped here." },
    ]);
    expect(await scopeStatisticsMismatches(ns.id)).toBe(0);
    const teamB = await createKey(org.id, { scopes: { team: "b" }, namespaceIds: [ns.id] });
    const body = { namespace_id: ns.id, scopes: { region: "eu" } };
    const forgotten = await api("POST", "/forget", { key: teamB.secret, body });
    expect(forgotten.body.data.deleted).toBe(2);
    expect(await scopeStatisticsMismatches(ns.id)).toBe(0);

    const prisma = await db();
    const statistics = async () => ({
      stats: await prisma.$queryRaw(Prisma.sql`SELECT * FROM scope_search_stats ORDER BY namespace_id, scope_key`),
      terms: await prisma.$queryRaw(Prisma.sql`SELECT * FROM scope_terms ORDER BY namespace_id, scope_key, term`),
    });
    const maintained = await statistics();
    const migrationFile = path.join("prisma", "migrations", "20261122120000_scoped_term_statistics", "migration.sql");
    const migration = fs.readFileSync(migrationFile, "utf8");
    const backfill = migration
      .slice(migration.indexOf("-- Backfill"))
      .split(";")
      .map((sql) => sql.replace(/^--.*$/gm, "").trim())
      .filter(Boolean);
    expect(backfill).toHaveLength(2);
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw(Prisma.sql`DELETE FROM scope_terms`);
      await tx.$executeRaw(Prisma.sql`DELETE FROM scope_search_stats`);
      for (const sql of backfill) await tx.$executeRaw(Prisma.raw(sql));
    });
    expect(await statistics()).toEqual(maintained);

    await api("POST", "/forget", { key: admin, body: { namespace_id: ns.id, all: true } });
    expect(await prisma.$queryRaw(Prisma.sql`SELECT * FROM scope_terms WHERE namespace_id = ${ns.id}`)).toEqual([]);
    expect(await prisma.$queryRaw(Prisma.sql`SELECT * FROM scope_search_stats WHERE namespace_id = ${ns.id}`)).toEqual(
      [],
    );
  });
});

describe("a scope filter selects chunks by their scope signature", () => {
  const MEMORIES = [
    { content: "Kayak trip down the river on Saturday morning.", scopes: { team: "b" } },
    { content: "The river kayak club meets at the boathouse.", scopes: { team: "b", region: "eu" } },
    { content: "Canoe and kayak rental prices went up this spring.", scopes: { team: "b", region: "us" } },
    { content: "A kayak paddle left in the office kitchen.", scopes: { team: "a" } },
    { content: "River cruises along the Danube in summer." },
  ];

  test("chunks and postings carry the signature of their scopes, and the migration's backfill sets it", async () => {
    const { key: admin } = await createTenant();
    const ns = await createNamespace(admin);
    await rememberAll(admin, ns.id, MEMORIES);
    expect(await signatureMismatches(ns.id)).toEqual({ chunks: 0, postings: 0, signed: 4 });

    const prisma = await db();
    const migrationFile = path.join(
      "prisma",
      "migrations",
      "20261122230000_scope_signature_on_chunks",
      "migration.sql",
    );
    const backfill = fs
      .readFileSync(migrationFile, "utf8")
      .split(";")
      .map((sql) => sql.replace(/^--.*$/gm, "").trim())
      .filter((sql) => sql.startsWith("UPDATE"));
    expect(backfill).toHaveLength(2);
    await prisma.$transaction(async (tx) => {
      await tx.$executeRaw(Prisma.sql`UPDATE chunk_terms SET scope_key = NULL WHERE namespace_id = ${ns.id}`);
      await tx.$executeRaw(Prisma.sql`UPDATE memory_chunks SET scope_key = NULL WHERE namespace_id = ${ns.id}`);
      expect((await signatureMismatches(ns.id, tx)).signed).toBe(0);
      for (const sql of backfill) await tx.$executeRaw(Prisma.raw(sql));
    });
    expect(await signatureMismatches(ns.id)).toEqual({ chunks: 0, postings: 0, signed: 4 });
  });

  test("every mode finds the memories of every signature holding the pairs, ranked as over those alone", async () => {
    const { org, key: admin } = await createTenant();
    const mixed = await createNamespace(admin);
    const alone = await createNamespace(admin);
    const teamB = MEMORIES.filter((m) => m.scopes?.team === "b");
    await rememberAll(admin, mixed.id, MEMORIES);
    await rememberAll(admin, alone.id, teamB);
    const query = "kayak on the river";
    // Small selections are scanned exactly; a limit of 0 sends them through the HNSW index instead.
    for (const [mode, exactVectorScanLimit] of [
      ["vector", 0],
      ["vector", undefined],
      ["fulltext", 0],
      ["hybrid", 0],
      ["hybrid", undefined],
    ] as const) {
      const search = (namespaceId: string, scopes?: Record<string, string>) =>
        searchChunks({
          orgId: org.id,
          namespaceId,
          query,
          topK: 10,
          mode,
          scopes,
          statisticsScopes: { team: "b" },
          exactVectorScanLimit,
        });
      const filtered = await search(mixed.id, { team: "b" });
      expect(filtered.map((m) => m.content).sort(), mode).toEqual(teamB.map((m) => m.content).sort());
      const expected = await search(alone.id);
      // Equal scores are ordered by chunk id, which differs between the namespaces.
      const scored = (matches: typeof filtered) => matches.map((m) => [m.score, m.content]).sort();
      expect(scored(filtered), mode).toEqual(scored(expected));
      expect(
        filtered.map((m) => m.score),
        mode,
      ).toEqual(expected.map((m) => m.score));
      // Two pairs select one signature; a pair no chunk carries selects nothing.
      const eu = await search(mixed.id, { team: "b", region: "eu" });
      expect(
        eu.map((m) => m.content),
        mode,
      ).toEqual([MEMORIES[1].content]);
      expect(await search(mixed.id, { team: "c" }), mode).toEqual([]);
    }
  });
});

/** Chunks and postings whose scope signature is not that of the chunk's scopes, and how many are signed. */
async function signatureMismatches(namespaceId: string, tx?: Tx) {
  const [row] = await (tx ?? (await db())).$queryRaw<
    { chunks: number; postings: number; signed: number }[]
  >(Prisma.sql`SELECT
       (SELECT count(*) FROM memory_chunks WHERE namespace_id = ${namespaceId}
          AND scope_key IS DISTINCT FROM (CASE WHEN scopes <> '{}'::jsonb THEN md5(scopes::text) END))::int AS chunks,
       (SELECT count(*) FROM chunk_terms p JOIN memory_chunks c ON c.id = p.chunk_id
          WHERE p.namespace_id = ${namespaceId} AND p.scope_key IS DISTINCT FROM c.scope_key)::int AS postings,
       (SELECT count(*) FROM memory_chunks WHERE namespace_id = ${namespaceId} AND scope_key IS NOT NULL)::int AS
           signed`);
  return row;
}

/** Rows where the per-scope statistics differ from what the chunks and postings say. */
async function scopeStatisticsMismatches(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ mismatches: number }[]>(Prisma.sql`SELECT
       (SELECT count(*) FROM (
          SELECT md5(c.scopes::text) AS scope_key, p.term, count(*) AS df
          FROM chunk_terms p JOIN memory_chunks c ON c.id = p.chunk_id
          WHERE p.namespace_id = ${namespaceId} AND c.scopes <> '{}'::jsonb GROUP BY c.scopes, p.term
        ) p FULL JOIN (SELECT scope_key, term, df FROM scope_terms WHERE namespace_id = ${namespaceId}) t USING
            (scope_key, term)
        WHERE p.df IS DISTINCT FROM t.df)
     + (SELECT count(*) FROM (
          SELECT md5(scopes::text) AS scope_key, count(*) AS n, sum(term_count) AS terms
          FROM memory_chunks WHERE namespace_id = ${namespaceId} AND scopes <> '{}'::jsonb GROUP BY scopes
        ) c FULL JOIN (
          SELECT scope_key, chunk_count AS n, total_terms AS terms FROM scope_search_stats WHERE namespace_id =
              ${namespaceId}
        ) s USING (scope_key)
        WHERE c.n IS DISTINCT FROM s.n OR c.terms IS DISTINCT FROM s.terms)::int AS mismatches`);
  return Number(row.mismatches);
}
