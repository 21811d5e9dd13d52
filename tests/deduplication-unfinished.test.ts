// Deduplication answers with a twin only once the write that stored it has finished. A batch writes a group at
// a time and rolls back whole when a later group fails; a remember that answered with a memory of its first
// group named a memory that then disappeared. Here the unfinished write is what a batch leaves between its
// groups: its memory committed and recorded by its open write intent (lib/memory/write-intents.ts).
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { api } from "./helpers/api";
import { createNamespace, createTenant } from "./helpers/fixtures";

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
