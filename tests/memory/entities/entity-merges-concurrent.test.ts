// Entity merges outside remember (re-extraction, a PATCH of occurred_at) take turns with remember's: a name
// merges into an entity or alias by what the namespace holds when it is decided. On PostgreSQL a trigger holds
// a remember for three seconds after it has merged "Mel" into Melanie, before it commits, while the other change
// runs; the embedded database runs whole transactions one at a time, so there the two are only sent at once.
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { reextractEntities } from "@/lib/memory/entities/reextract-entities";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";
import { onPostgres } from "../../helpers/postgres";

// This file's own database: a remember's first memory.created event waits, once per transaction.
beforeAll(async () => {
  if (!onPostgres()) return;
  const prisma = await db();
  await prisma.$executeRaw(Prisma.sql`
    CREATE FUNCTION test_hold_remember() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF current_setting('test.held', true) IS DISTINCT FROM 'yes' THEN
        PERFORM set_config('test.held', 'yes', true);
        PERFORM pg_sleep(3);
      END IF;
      RETURN NEW;
    END $$`);
  await prisma.$executeRaw(Prisma.sql`
    CREATE TRIGGER test_hold_remember BEFORE INSERT ON events
    FOR EACH ROW WHEN (NEW.type = 'memory.created') EXECUTE FUNCTION test_hold_remember()`);
});
afterAll(async () => {
  if (!onPostgres()) return;
  const prisma = await db();
  await prisma.$executeRaw(Prisma.sql`DROP TRIGGER test_hold_remember ON events`);
  await prisma.$executeRaw(Prisma.sql`DROP FUNCTION test_hold_remember()`);
});

/** Runs `remember` and, once it is held after its entities (on PostgreSQL), `other`. */
async function duringRemember(remember: () => Promise<unknown>, other: () => Promise<unknown>) {
  if (!onPostgres()) return Promise.all([remember(), other()]);
  const remembered = remember();
  const prisma = await db();
  for (let waited = 0; ; waited += 20) {
    const [{ held }] = await prisma.$queryRaw<{ held: number }[]>(
      Prisma.sql`SELECT count(*)::int AS held FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event = 'PgSleep'`,
    );
    if (held > 0) break;
    if (waited > 20_000) throw new Error("the remember was never held");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Promise.all([remembered, other()]);
}

async function entities(namespaceId: string) {
  return (await db()).$queryRaw<{ key: string; aliases: string[] }[]>(
    Prisma.sql`SELECT key, aliases FROM entities WHERE namespace_id = ${namespaceId} ORDER BY key`,
  );
}

async function linkedKeys(memoryId: string) {
  const rows = await (
    await db()
  ).$queryRaw<{ key: string }[]>(
    Prisma.sql`SELECT e.key FROM memory_entities l JOIN entities e ON e.id = l.entity_id
               WHERE l.memory_id = ${memoryId} ORDER BY e.key`,
  );
  return rows.map((row) => row.key);
}

const changes = {
  "re-extraction": (_key: string, namespaceId: string) => reextractEntities({ namespaceId }),
  "a PATCH of occurred_at": async (key: string, _namespaceId: string, memoryId: string) => {
    const patched = await api("PATCH", `/memories/${memoryId}`, {
      key,
      body: { occurred_at: "2026-03-02T10:00:00Z" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  },
};

test.each(Object.keys(changes) as (keyof typeof changes)[])(
  "%s while a remember merges the same name: one entity, no alias beside an entity of its own",
  async (change) => {
    const { key } = await createTenant(`Concurrent merges ${change}`);
    const namespace = await createNamespace(key);
    const stored = await api("POST", "/remember", {
      key,
      body: { namespace_id: namespace.id, content: "Mel phoned about the boat.", occurred_at: "2026-03-01T09:00:00Z" },
    });
    expect(stored.status).toBe(201);
    const memoryId = stored.body.data.id as string;
    // As a memory from before entities were extracted: no entity, no link, no extractor version.
    const prisma = await db();
    await prisma.$executeRaw`DELETE FROM entities WHERE namespace_id = ${namespace.id}`;
    await prisma.$executeRaw`UPDATE memories SET entities_version = NULL WHERE id = ${memoryId}`;

    await duringRemember(
      async () => {
        const remembered = await api("POST", "/remember", {
          key,
          body: {
            namespace_id: namespace.id,
            session_id: "harbour",
            messages: [
              { role: "Melanie", content: "I am back from the coast." },
              { role: "user", content: "Mel came by the harbour today." },
            ],
          },
        });
        expect(remembered.status, JSON.stringify(remembered.body)).toBe(201);
      },
      () => changes[change](key, namespace.id, memoryId),
    );

    // "Mel" is one entity, as after the two in either order: its own, or Melanie's alias (the remember first:
    // on PostgreSQL the other waited for it). The older memory is linked to it.
    const named = (await entities(namespace.id)).filter((e) => e.key === "mel" || e.aliases.includes("mel"));
    expect(named).toHaveLength(1);
    if (onPostgres()) expect(named).toEqual([{ key: "melanie", aliases: ["mel"] }]);
    expect(await linkedKeys(memoryId)).toContain(named[0].key);
  },
  60_000,
);
