// Idempotency-Key on the PostgreSQL server of TEST_DATABASE_URL (skipped without one): the claim, the replay,
// the conflict and a claim left by a process that died, which on PostgreSQL (several instances may share it)
// waits for its lease to end.
import { expect } from "vitest";
import { db, getDatabase } from "@/lib/db";
import { api } from "../helpers/api";
import { createNamespace, createTenant } from "../helpers/fixtures";
import { postgresTest, usePostgresDatabase } from "../helpers/postgres";
import { Prisma } from "@/lib/generated/prisma/client";

usePostgresDatabase();

function remember(key: string, body: unknown, idempotencyKey: string) {
  return api("POST", "/remember", { key, body, headers: { "idempotency-key": idempotencyKey } });
}

postgresTest(
  "on PostgreSQL: one memory for retries, 409 for another body, a live claim of another instance",
  async () => {
    expect((await getDatabase()).kind).toBe("postgres");
    const { key, keyId } = await createTenant();
    const ns = await createNamespace(key);
    const body = { namespace_id: ns.id, content: "The office plants are watered on Fridays.", allow_duplicate: true };
    const answers = await Promise.all([remember(key, body, "pg-1"), remember(key, body, "pg-1")]);
    const first = answers.find((answer) => answer.headers.get("idempotent-replayed") === null && answer.status === 201);
    expect(first).toBeDefined();
    const retry = await remember(key, body, "pg-1");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first!.body);
    const other = await remember(key, { ...body, content: "another" }, "pg-1");
    expect(other.status).toBe(409);
    expect(other.body.error.details[0].message).toBe("IDEMPOTENCY_CONFLICT");
    expect(await (await db()).memory.count({ where: { namespaceId: ns.id } })).toBe(1);

    // Several instances may share PostgreSQL: another process's claim is its own until its lease ends.
    const prisma = await db();
    const asRunningElsewhere = (lease: string) =>
      prisma.$executeRaw(Prisma.sql`UPDATE idempotency_keys SET response_status = NULL, response_encrypted = NULL,
          process_id = 'another-instance',
              locked_until = now() + ${lease}::interval WHERE api_key_id = ${keyId}`);
    await asRunningElsewhere("1 minute");
    expect((await remember(key, body, "pg-1")).body.error.details[0].message).toBe("IDEMPOTENCY_IN_PROGRESS");
    await asRunningElsewhere("-1 second");
    const takenOver = await remember(key, body, "pg-1");
    expect(takenOver.status).toBe(201);
    expect(takenOver.headers.get("idempotent-replayed")).toBeNull();
  },
);
