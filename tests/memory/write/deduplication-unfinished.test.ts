// Deduplication answers with a twin only once the write that stored it has finished. A batch writes a group at
// a time and rolls back whole when a later group fails; a remember that answered with a memory of its first
// group named a memory that then disappeared. Here the unfinished write is what a batch leaves between its
// groups: its memory committed and recorded by its open write intent (lib/memory/store/write-intents.ts).
import { createHash } from "node:crypto";
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "../../helpers/api";
import { createNamespace, createTenant } from "../../helpers/fixtures";

const FACT = "The spare key to the boathouse hangs behind the tide chart.";

/** A memory of FACT, then an open write intent holding it, as a batch between its first and second group. */
async function unfinishedTwin() {
  const { org, key } = await createTenant("Unfinished twins");
  const namespace = await createNamespace(key);
  const stored = await api("POST", "/remember", { key, body: { namespace_id: namespace.id, content: FACT } });
  expect(stored.status).toBe(201);
  const twinId = stored.body.data.id as string;
  const intentId = `wri_test_${twinId}`;
  const prisma = await db();
  // Another process's write, its lease far from over: no sweep rolls it back meanwhile.
  await prisma.$executeRaw(
    Prisma.sql`INSERT INTO write_intents (id, org_id, namespace_id, kind, process_id, locked_until)
               VALUES (${intentId}, ${org.id}, ${namespace.id}, 'remember', 'another-process',
                       now() + interval '1 minute')`,
  );
  await prisma.$executeRaw(
    Prisma.sql`INSERT INTO write_intent_memories (intent_id, memory_id) VALUES (${intentId}, ${twinId})`,
  );
  const endIntent = () => prisma.$executeRaw(Prisma.sql`DELETE FROM write_intents WHERE id = ${intentId}`);
  return { key, namespace, twinId, endIntent };
}

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol("pending");
  return (await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(pending), ms))])) === pending;
}

test("a twin whose write is rolled back is not answered: the remember waits, then stores its own", async () => {
  const { key, namespace, twinId, endIntent } = await unfinishedTwin();
  const remembered = api("POST", "/remember", { key, body: { namespace_id: namespace.id, content: FACT } });
  expect(await pendingAfter(remembered, 500)).toBe(true);

  // The batch fails later: its rollback deletes its memories, then its intent.
  const forgotten = await api("POST", "/forget", { key, body: { namespace_id: namespace.id, memory_ids: [twinId] } });
  expect(forgotten.status).toBe(200);
  await endIntent();

  const answer = await remembered;
  expect(answer.status).toBe(201);
  expect(answer.body.data).toMatchObject({ content: FACT, deduplicated: false });
  expect(answer.body.data.id).not.toBe(twinId);
  // What the answer names exists, and is the only copy.
  expect((await api("GET", `/memories/${answer.body.data.id}`, { key })).status).toBe(200);
  const recalled = await api("POST", "/recall", { key, body: { namespace_id: namespace.id, query: FACT } });
  expect(recalled.body.data.map((match: { memory_id: string }) => match.memory_id)).toEqual([answer.body.data.id]);
});

test("a twin whose write finishes is answered once it has, as a later remember would be", async () => {
  const { key, namespace, twinId, endIntent } = await unfinishedTwin();
  const remembered = api("POST", "/remember", { key, body: { namespace_id: namespace.id, content: FACT } });
  expect(await pendingAfter(remembered, 500)).toBe(true);
  await endIntent();
  const answer = await remembered;
  expect(answer.status).toBe(201);
  expect(answer.body.data).toMatchObject({ id: twinId, deduplicated: true });
});

const LATER_GROUP = "a batch whose later group meets an unfinished twin answers 503 at once, leaving nothing";
test(
  LATER_GROUP,
  async () => {
    // Two batches each holding the other's twin used to wait for each other the whole sweep (22 s), then 503: a
    // group after the first holds its own write open, so it gives up at once. Here the twin appears (a trigger)
    // while the batch's first group commits, as another batch's group would.
    const { org, key } = await createTenant("Unfinished twins of a batch");
    const namespace = await createNamespace(key);
    const decoy = await api("POST", "/remember", {
      key,
      body: { namespace_id: namespace.id, content: "A note that becomes the twin." },
    });
    expect(decoy.status).toBe(201);
    const decoyId = decoy.body.data.id as string;
    const prisma = await db();
    const hash = createHash("sha256").update(FACT).digest("hex");
    const intentId = `wri_test_${decoyId}`;
    await prisma.$executeRaw(
      Prisma.raw(`CREATE FUNCTION make_unfinished_twin() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  UPDATE memories SET content = '${FACT}', content_hash = '${hash}' WHERE id = '${decoyId}';
                  INSERT INTO write_intents (id, org_id, namespace_id, kind, process_id, locked_until)
                    VALUES ('${intentId}', '${org.id}', '${namespace.id}', 'remember', 'another-process',
                            now() + interval '1 minute');
                  INSERT INTO write_intent_memories (intent_id, memory_id) VALUES ('${intentId}', '${decoyId}');
                  RETURN NULL;
                END $$`),
    );
    await prisma.$executeRaw(
      Prisma.raw(`CREATE TRIGGER make_unfinished_twin AFTER INSERT ON write_intents FOR EACH ROW
                WHEN (NEW.process_id <> 'another-process') EXECUTE FUNCTION make_unfinished_twin()`),
    );
    try {
      // 32 one-chunk memories fill the first group (CHUNKS_PER_TRANSACTION); FACT is the second's.
      const first = Array.from({ length: 32 }, (_, i) => ({ content: `Batch note number ${i}.` }));
      const started = Date.now();
      const answer = await api("POST", "/remember", {
        key,
        body: { namespace_id: namespace.id, memories: [...first, { content: FACT }] },
      });
      const tookMs = Date.now() - started;
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("2");
      expect(tookMs).toBeLessThan(5_000);
      // Rolled back whole: the first group's memories are gone, the twin stays.
      const [left] = await prisma.$queryRaw<{ count: number }[]>(
        Prisma.sql`SELECT count(*)::int AS count FROM memories
                 WHERE org_id = ${org.id} AND namespace_id = ${namespace.id}`,
      );
      expect(left.count).toBe(1);
    } finally {
      await prisma.$executeRaw(Prisma.raw(`DROP TRIGGER make_unfinished_twin ON write_intents`));
      await prisma.$executeRaw(Prisma.raw(`DROP FUNCTION make_unfinished_twin()`));
    }
  },
  60_000,
);
