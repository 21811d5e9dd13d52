// Idempotency-Key on the DATABASE_URL path (node-postgres over the wire protocol, to a PGlite served by
// pglite-socket as tests/postgres.test.ts does): the claim, the replay, the conflict and a claim left by a
// process that died, which on PostgreSQL (several instances may share it) waits for its lease to end.
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { afterAll, beforeAll, expect, test } from "vitest";
import { closeDatabase, db, getDatabase } from "@/lib/db";
import { api } from "./helpers/api";
import { createNamespace, createTenant } from "./helpers/fixtures";
import { freePort } from "./helpers/server";

let pglite: PGlite;
let socketServer: PGLiteSocketServer;

beforeAll(async () => {
  pglite = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  socketServer = new PGLiteSocketServer({ db: pglite, port, host: "127.0.0.1", maxConnections: 4 });
  await socketServer.start();
  process.env.DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  // The socket server multiplexes connections onto one session: one connection keeps transactions apart.
  process.env.DATABASE_POOL_SIZE = "1";
});

afterAll(async () => {
  await closeDatabase();
  await socketServer.stop();
  await pglite.close();
});

function remember(key: string, body: unknown, idempotencyKey: string) {
  return api("POST", "/remember", { key, body, headers: { "idempotency-key": idempotencyKey } });
}

test("on PostgreSQL: one memory for retries, 409 for another body, a live claim of another instance", async () => {
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
    prisma.$executeRawUnsafe(
      `UPDATE idempotency_keys SET response_status = NULL, response_encrypted = NULL, process_id = 'another-instance',
              locked_until = now() + $2::interval WHERE api_key_id = $1`,
      keyId,
      lease,
    );
  await asRunningElsewhere("1 minute");
  expect((await remember(key, body, "pg-1")).body.error.details[0].message).toBe("IDEMPOTENCY_IN_PROGRESS");
  await asRunningElsewhere("-1 second");
  const takenOver = await remember(key, body, "pg-1");
  expect(takenOver.status).toBe(201);
  expect(takenOver.headers.get("idempotent-replayed")).toBeNull();
});
