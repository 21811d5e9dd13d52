// Entities extracted again by the maintenance job (lib/memory/entities/reextract-entities.ts) for memories
// written before entities existed or by another extractor version: the result is what a fresh write stores,
// a second run changes nothing, a batch cut short (a failed statement, or the process killed with SIGKILL)
// leaves nothing half done and the next run converges; and concurrent writers naming the same new entity
// share one row. On the embedded database and, in `npm run test:postgres`, on PostgreSQL.
import pg from "pg";
import { describe, expect, test } from "vitest";
import { closeDatabase, db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { ENTITY_EXTRACTOR_VERSION } from "@/lib/memory/entities/extract-entities";
import { unlinkEntities } from "@/lib/memory/entities/link-entities";
import {
  entityJobRunners,
  hasStaleEntities,
  reextractEntities,
  requestEntityReextraction,
} from "@/lib/memory/entities/reextract-entities";
import { activeJob, runDueJobs } from "@/lib/jobs/queue";
import { api } from "../../helpers/api";
import { memgw } from "../../helpers/cli";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { onPostgres } from "../../helpers/postgres";

const MAY_8 = "2023-05-08T13:56:00Z";

async function sql<T = Record<string, unknown>>(query: Prisma.Sql) {
  return (await db()).$queryRaw<T[]>(query);
}

/** What a namespace's entities are, with each link's mentions, in a form two runs can be compared by. */
async function entityState(namespaceId: string) {
  const entities = await sql<{ id: string; kind: string; name: string; key: string; aliases: string[] }>(
    Prisma.sql`SELECT id, kind, name, key, aliases FROM entities WHERE namespace_id = ${namespaceId} ORDER BY key`,
  );
  const links = await sql<{ memory_id: string; key: string; mentions: number }>(
    Prisma.sql`SELECT l.memory_id, e.key, l.mentions FROM memory_entities l JOIN entities e ON e.id = l.entity_id
               WHERE l.namespace_id = ${namespaceId} ORDER BY l.memory_id, e.key`,
  );
  return {
    entities: entities.map(({ kind, name, key, aliases }) => ({ kind, name, key, aliases })),
    ids: Object.fromEntries(entities.map((e) => [e.key, e.id])),
    links: links.map((l) => `${l.memory_id} ${l.key} ${l.mentions}`),
  };
}

/** As the migration leaves memories written before entities existed: no links, no version. */
async function forgetEntities(namespaceId: string) {
  const prisma = await db();
  await prisma.$executeRaw`DELETE FROM entities WHERE namespace_id = ${namespaceId}`;
  await prisma.$executeRaw`UPDATE memories SET entities_version = NULL WHERE namespace_id = ${namespaceId}`;
}

async function versions(namespaceId: string) {
  const rows = await sql<{ version: string | null; memories: number }>(
    Prisma.sql`SELECT entities_version AS version, count(*)::int AS memories FROM memories
               WHERE namespace_id = ${namespaceId} GROUP BY entities_version ORDER BY entities_version NULLS FIRST`,
  );
  return Object.fromEntries(rows.map((r) => [r.version ?? "null", r.memories]));
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { id: string }[];
}

const conversation = (namespaceId: string) => ({
  namespace_id: namespaceId,
  session_id: "s1",
  messages: [
    { role: "Melanie", content: "We went to the Grand Canyon with Tom last summer.", occurred_at: MAY_8 },
    { role: "Caroline", content: "Mel, Tom's photos of the Grand Canyon are lovely!", occurred_at: MAY_8 },
    { role: "Melanie", content: "Thanks! Tom works at Acme Corp in Chicago now.", occurred_at: MAY_8 },
    { role: "Caroline", content: "I went to a support group yesterday with Priya.", occurred_at: MAY_8 },
    { role: "Melanie", content: "Priya and Tom should meet in Chicago.", occurred_at: MAY_8 },
  ],
});

describe("re-extraction", () => {
  test("memories from before entities get what a fresh write stores; a second run changes nothing", async () => {
    const { key } = await createTenant("Reextract A");
    const ns = await createNamespace(key);
    const memories = await remember(key, conversation(ns.id));
    const fresh = await entityState(ns.id);
    expect(fresh.entities.map((e) => e.key)).toEqual(
      expect.arrayContaining(["melanie", "caroline", "tom", "grand canyon", "chicago", "priya", "2022-summer"]),
    );
    // Another organization's memories, also from before entities.
    const other = await createTenant("Reextract B");
    const otherNs = await createNamespace(other.key);
    await remember(other.key, { namespace_id: otherNs.id, content: "Dana flew to Lisbon." });

    await forgetEntities(ns.id);
    await forgetEntities(otherNs.id);
    expect(await hasStaleEntities(ns.id)).toBe(true);
    expect(await entityState(ns.id)).toEqual({ entities: [], ids: {}, links: [] });

    expect(await reextractEntities({ namespaceId: ns.id })).toEqual({ reextracted: memories.length, more: false });
    const again = await entityState(ns.id);
    expect(again.entities).toEqual(fresh.entities);
    expect(again.links).toEqual(fresh.links);
    expect(await versions(ns.id)).toEqual({ [ENTITY_EXTRACTOR_VERSION]: memories.length });
    // The job was given one namespace: the other organization's rows are as they were.
    expect(await versions(otherNs.id)).toEqual({ null: 1 });
    expect(await entityState(otherNs.id)).toEqual({ entities: [], ids: {}, links: [] });
    expect(await hasStaleEntities(ns.id)).toBe(false);

    // A second run finds nothing to do and changes nothing (ids included).
    expect(await reextractEntities({ namespaceId: ns.id })).toEqual({ reextracted: 0, more: false });
    expect(await entityState(ns.id)).toEqual(again);

    // Without a namespace, every organization's stale memories.
    expect(await reextractEntities()).toMatchObject({ reextracted: 1, more: false });
    expect((await entityState(otherNs.id)).entities.map((e) => e.key)).toEqual(["dana", "lisbon"]);
    expect(await entityState(ns.id)).toEqual(again);
    expect(await hasStaleEntities()).toBe(false);
  });

  test("an older version's entities are replaced; one still named keeps its id, one no longer named goes", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const [first] = await remember(key, conversation(ns.id));
    const fresh = await entityState(ns.id);
    // What an older extractor might have left: another version tag, a wrong mention count, an extra entity.
    const prisma = await db();
    await prisma.$executeRaw`UPDATE memories SET entities_version = 'wink-compromise-chrono-0'
                             WHERE namespace_id = ${ns.id}`;
    await prisma.$executeRaw`UPDATE memory_entities SET mentions = 7 WHERE namespace_id = ${ns.id}`;
    const [{ org_id: orgId }] = await sql<{ org_id: string }>(
      Prisma.sql`SELECT org_id FROM namespaces WHERE id = ${ns.id}`,
    );
    await prisma.$executeRaw`INSERT INTO entities (id, org_id, namespace_id, kind, name, key)
                             VALUES ('ent_oldextractor', ${orgId}, ${ns.id}, 'other', 'Thanks', 'thanks')`;
    await prisma.$executeRaw`INSERT INTO memory_entities (memory_id, entity_id, org_id, namespace_id, mentions)
                             VALUES (${first.id}, 'ent_oldextractor', ${orgId}, ${ns.id}, 1)`;
    expect(await hasStaleEntities(ns.id)).toBe(true);

    expect(await reextractEntities({ namespaceId: ns.id })).toEqual({ reextracted: 5, more: false });
    expect(await entityState(ns.id)).toEqual(fresh);
    // A version "above" the running one (a newer instance's, rolled back) is also taken again.
    await prisma.$executeRaw`UPDATE memories SET entities_version = 'zzz-9' WHERE id = ${first.id}`;
    expect(await reextractEntities({ namespaceId: ns.id })).toEqual({ reextracted: 1, more: false });
    expect(await entityState(ns.id)).toEqual(fresh);
  });

  test("a batch that fails half-way leaves its memories untouched, and the next run converges", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const memories = await remember(key, conversation(ns.id));
    const fresh = await entityState(ns.id);
    await forgetEntities(ns.id);
    const prisma = await db();
    // The second batch's link insert fails, after it deleted and upserted (a sequence is not rolled back).
    await prisma.$executeRaw`CREATE SEQUENCE reextract_failures`;
    await prisma.$executeRaw`CREATE FUNCTION fail_second_link_insert() RETURNS trigger LANGUAGE plpgsql AS $$
                             BEGIN
                               IF nextval('reextract_failures') = 2 THEN RAISE EXCEPTION 'failed mid-batch'; END IF;
                               RETURN NULL;
                             END $$`;
    await prisma.$executeRaw`CREATE TRIGGER fail_second_link_insert AFTER INSERT ON memory_entities
                             FOR EACH STATEMENT EXECUTE FUNCTION fail_second_link_insert()`;
    try {
      await expect(reextractEntities({ namespaceId: ns.id, batchSize: 2 })).rejects.toThrow(/failed mid-batch/);
    } finally {
      await prisma.$executeRaw`DROP TRIGGER fail_second_link_insert ON memory_entities`;
      await prisma.$executeRaw`DROP FUNCTION fail_second_link_insert()`;
    }
    // The first batch committed; the second left nothing behind.
    expect(await versions(ns.id)).toEqual({ null: memories.length - 2, [ENTITY_EXTRACTOR_VERSION]: 2 });
    const [partial] = await sql<{ linked: number }>(
      Prisma.sql`SELECT count(DISTINCT l.memory_id)::int AS linked FROM memory_entities l
                 JOIN memories m ON m.id = l.memory_id WHERE l.namespace_id = ${ns.id} AND m.entities_version IS NULL`,
    );
    expect(partial.linked).toBe(0);

    expect(await reextractEntities({ namespaceId: ns.id, batchSize: 2 })).toEqual({
      reextracted: memories.length - 2,
      more: false,
    });
    const converged = await entityState(ns.id);
    expect(converged.links).toEqual(fresh.links);
    expect(converged.entities.map((e) => e.key).sort()).toEqual(fresh.entities.map((e) => e.key).sort());
  });

  test(
    "`memgw entities reextract` killed with SIGKILL in its second batch, then run again, converges",
    { timeout: 240_000 },
    async () => {
      const { key } = await createTenant();
      const ns = await createNamespace(key);
      // 120 turns: three batches of 50.
      const turns = Array.from({ length: 120 }, (_, i) => ({
        role: i % 2 ? "Caroline" : "Melanie",
        content: [
          `Mel, I saw Tom at the Grand Canyon on day ${i}.`,
          `Priya moved to Chicago and works at Acme Corp (${i}).`,
          `We went camping last summer, trip ${i}.`,
        ][i % 3],
        occurred_at: MAY_8,
      }));
      const memories = await remember(key, { namespace_id: ns.id, session_id: "long", messages: turns });
      expect(memories).toHaveLength(120);
      const fresh = await entityState(ns.id);
      await forgetEntities(ns.id);

      // The command opens the database itself once this process lets go of it (the embedded one).
      await closeDatabase();
      const killed = await memgw(["entities", "reextract", "--namespace", ns.id], {
        MEMGW_TEST_CRASH_AT: "entities.reextract.batch.2",
      });
      expect(killed.code).not.toBe(0);
      expect(killed.stderr).toContain("MEMGW_TEST_CRASH_AT=entities.reextract.batch.2");
      expect(await versions(ns.id)).toEqual({ null: 70, [ENTITY_EXTRACTOR_VERSION]: 50 });

      await closeDatabase();
      const rerun = await memgw(["entities", "reextract", "--namespace", ns.id]);
      expect(rerun.stderr).toBe("");
      expect(rerun.code).toBe(0);
      expect(rerun.json).toEqual({
        namespace_id: ns.id,
        extractor_version: ENTITY_EXTRACTOR_VERSION,
        reextracted: 70,
      });
      const converged = await entityState(ns.id);
      expect(converged.links).toEqual(fresh.links);
      expect(converged.entities).toEqual(fresh.entities);
      expect(await versions(ns.id)).toEqual({ [ENTITY_EXTRACTOR_VERSION]: 120 });

      await closeDatabase();
      const unknown = await memgw(["entities", "reextract", "--namespace", "ns_doesnotexist"]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toMatch(/ns_doesnotexist/);
    },
  );
});

describe("a rewritten memory", () => {
  test("a PATCH keeps the id of an entity the new content still names", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const memory = (await remember(key, { namespace_id: ns.id, content: "Dana flew to Lisbon." })) as unknown as {
      id: string;
    };
    const before = await entityState(ns.id);
    const response = await api("PATCH", `/memories/${memory.id}`, { key, body: { content: "Dana flew to Porto." } });
    expect(response.status).toBe(200);
    const after = await entityState(ns.id);
    expect(Object.keys(after.ids)).toEqual(["dana", "porto"]);
    expect(after.ids.dana).toBe(before.ids.dana);
  });
});

describe("the job", () => {
  test("queued when a memory is stale (as at start-up), once; run by the job worker until none is left", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, conversation(ns.id));
    const fresh = await entityState(ns.id);
    await runDueJobs(entityJobRunners);
    expect(await requestEntityReextraction()).toBe(false);
    expect(await activeJob("entity-reextract")).toBeNull();

    await forgetEntities(ns.id);
    expect(await requestEntityReextraction()).toBe(true);
    // Asked again (a second instance starting): still one job.
    expect(await requestEntityReextraction()).toBe(true);
    const [{ jobs }] = await sql<{ jobs: number }>(
      Prisma.sql`SELECT count(*)::int AS jobs FROM jobs WHERE kind = 'entity_reextract'`,
    );
    expect(jobs).toBe(1);
    expect(await runDueJobs(entityJobRunners)).toBe(1);
    expect(await activeJob("entity-reextract")).toBeNull();
    const after = await entityState(ns.id);
    expect(after.entities).toEqual(fresh.entities);
    expect(after.links).toEqual(fresh.links);
    expect(await requestEntityReextraction()).toBe(false);
  });
});

describe("concurrent writers", () => {
  test("two remembers naming the same new entities at once both succeed and share one row each", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const pairs = [
      ["Priya Raman flew to Zanzibar.", "Zanzibar was where Priya Raman went."],
      ["In Zanzibar, Priya Raman met Okonkwo.", "Okonkwo and Priya Raman left Zanzibar."],
      ["Okonkwo moved to Kigali.", "Kigali suits Okonkwo."],
    ];
    // Each pair on two connections at once (on PostgreSQL; the embedded database takes them in turn), naming
    // the same entities in opposite orders.
    for (const pair of pairs) {
      const answers = await Promise.all(
        pair.map((content) => api("POST", "/remember", { key, body: { namespace_id: ns.id, content } })),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
    }
    const state = await entityState(ns.id);
    expect(state.entities.map((e) => e.key)).toEqual(["kigali", "okonkwo", "priya raman", "zanzibar"]);
    const linked = (entity: string) => state.links.filter((l) => l.split(" ").slice(1, -1).join(" ") === entity);
    expect(linked("priya raman")).toHaveLength(4);
    expect(linked("zanzibar")).toHaveLength(4);
    expect(linked("okonkwo")).toHaveLength(4);
    expect(linked("kigali")).toHaveLength(2);
  });

  // Forced with a second connection: a writer has upserted the entity (and holds its row) when the deletion of
  // the last other memory naming it reaches it.
  test.skipIf(!onPostgres())(
    "a deletion waiting for a writer's entity sees the writer's link once it commits (PostgreSQL)",
    async () => {
      const { org, key } = await createTenant();
      const ns = await createNamespace(key);
      const [gone, kept] = (await remember(key, {
        namespace_id: ns.id,
        memories: [{ content: "Dana went to Oslo." }, { content: "Dana went to Bergen." }],
      })) as { id: string }[];
      const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await writer.connect();
      try {
        await writer.query("BEGIN");
        const [{ id: oslo }] = (
          await writer.query(
            `INSERT INTO entities (id, org_id, namespace_id, kind, name, key)
             VALUES ('ent_racing', $1, $2, 'place', 'Oslo', 'oslo')
             ON CONFLICT (namespace_id, key) DO UPDATE SET speaker = entities.speaker OR EXCLUDED.speaker RETURNING id`,
            [org.id, ns.id],
          )
        ).rows;
        const deletion = (await db()).$transaction((tx) => unlinkEntities(tx, org.id, ns.id, [gone.id]), {
          timeout: 30_000,
        });
        // The deletion is now waiting for the writer's row lock.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await writer.query(
          `INSERT INTO memory_entities (memory_id, entity_id, org_id, namespace_id, mentions)
           VALUES ($1, $2, $3, $4, 1)`,
          [kept.id, oslo, org.id, ns.id],
        );
        await writer.query("COMMIT");
        await deletion;
      } finally {
        await writer.end();
      }
      const links = (await entityState(ns.id)).links.map((l) => l.split(" ").slice(0, -1).join(" "));
      expect(links).toContain(`${kept.id} oslo`);
      expect(links).not.toContain(`${gone.id} oslo`);
    },
  );
  // Forced with a second connection standing for an erasure of every namespace (forget-in-every-namespace.ts),
  // which locks a namespace's memories, then its statistics, then the next namespace's memories.
  test.skipIf(!onPostgres())(
    "re-extraction beside an erasure holding one namespace's statistics, deleting in another: no deadlock (PostgreSQL)",
    async () => {
      const { key } = await createTenant();
      const first = await createNamespace(key);
      const second = await createNamespace(key);
      const [a] = await remember(key, { namespace_id: first.id, memories: [{ content: "Ines flew to Lisbon." }] });
      const [b] = await remember(key, { namespace_id: second.id, memories: [{ content: "Omar drove to Porto." }] });
      await sql(Prisma.sql`UPDATE memories SET entities_version = NULL WHERE id IN (${a.id}, ${b.id}) RETURNING id`);
      const erasure = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await erasure.connect();
      try {
        await erasure.query("BEGIN");
        // Done with the first namespace: its statistics lock is held to the end (lib/namespaces/statistics-lock.ts).
        await erasure.query("SELECT pg_advisory_xact_lock($1::int, hashtext($2))", [0x6d676e73, first.id]);
        const reextraction = reextractEntities();
        reextraction.catch(() => undefined);
        // The re-extraction now waits for the first namespace's statistics lock.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // One batch holding both namespaces' memories would hold this row: each would wait for the other (40P01).
        await erasure.query("DELETE FROM memories WHERE id = $1", [b.id]);
        await erasure.query("COMMIT");
        await reextraction;
      } finally {
        await erasure.end();
      }
      expect(await versions(first.id)).toEqual({ [ENTITY_EXTRACTOR_VERSION]: 1 });
      expect(await versions(second.id)).toEqual({});
    },
  );
});
