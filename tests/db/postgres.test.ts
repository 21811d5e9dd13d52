// The DATABASE_URL path: node-postgres and @prisma/adapter-pg, with a normal pool, on the PostgreSQL server
// of TEST_DATABASE_URL (skipped without one).
import fs from "node:fs";
import pg from "pg";
import { expect } from "vitest";
import { dataDir } from "@/lib/config";
import { db, getDatabase, queryRows } from "@/lib/db";
import { lockPath } from "@/lib/db/lock";
import { Prisma } from "@/lib/generated/prisma/client";
import { api, routeRequest } from "../helpers/api";
import { memgw } from "../helpers/cli";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { expectBytesRoundTrip, expectParametersRoundTrip } from "../helpers/query-rows";
import { postgresTest, usePostgresDatabase } from "../helpers/postgres";

usePostgresDatabase();

postgresTest(
  "with DATABASE_URL the gateway migrates and uses PostgreSQL, leaving the data directory alone",
  async () => {
    const database = await getDatabase();
    expect(database.kind).toBe("postgres");
    expect(database.migrations.applied.length + database.migrations.alreadyApplied).toBeGreaterThan(0);
    expect(fs.existsSync(lockPath(dataDir()))).toBe(false);
    const tables = await queryRows<{ tablename: string }>(
      Prisma.sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`,
    );
    expect(tables.map((r) => r.tablename)).toContain("namespaces");
  },
);

postgresTest("the namespace API works the same on PostgreSQL", async () => {
  const { org, key } = await createTenant();
  const ns = await createNamespace(key, { name: "pg-ns", external_reference_id: "pg-ref" });
  expect((await api("POST", "/namespaces", { key, body: { name: "pg-ns" } })).status).toBe(409);
  const reader = await createKey(org.id, { permissions: ["NAMESPACE_READ"] });
  expect((await api("GET", "/namespaces", { key: reader.secret })).body.data).toEqual([]);
  expect((await api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: reader.id } })).status).toBe(201);
  const listed = await api("GET", "/namespaces", { key: reader.secret });
  expect(listed.body.data.map((n: { id: string }) => n.id)).toEqual([ns.id]);
  expect((await api("DELETE", `/namespaces/${ns.id}`, { key })).status).toBe(200);
  expect(await (await db()).namespaceGrant.count({ where: { namespaceId: ns.id } })).toBe(0);
});

postgresTest(
  "recall works the same on PostgreSQL: both legs, filters, conversation context, the activity row",
  async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const remember = (body: Record<string, unknown>) =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, ...body } });
    expect(
      (await remember({ content: "The generator is tested every Monday at noon.", scopes: { team: "ops" } })).status,
    ).toBe(201);
    expect((await remember({ content: "Lunch is served in the north wing.", metadata: { floor: 2 } })).status).toBe(
      201,
    );
    const turns = await remember({
      session_id: "handover",
      messages: [
        { role: "user", content: "Who keeps the spare keys?" },
        { role: "assistant", content: "Maria keeps the spare keys in the blue cabinet." },
        { role: "user", content: "Thanks, I will ask her tomorrow." },
      ],
    });
    expect(turns.status).toBe(201);
    const recall = async (body: Record<string, unknown>) => {
      const response = await api("POST", "/recall", { key, body: { namespace_id: ns.id, top_k: 3, ...body } });
      expect(response.status).toBe(200);
      return response.body.data as { content: string; score: number; context: { content: string }[] }[];
    };
    const [generator] = await recall({ query: "when is the generator tested?" });
    expect(generator.content).toBe("The generator is tested every Monday at noon.");
    expect(generator.score).toBeGreaterThan(0);
    expect((await recall({ query: "generator", scopes: { team: "ops" } })).map((m) => m.content)).toEqual([
      "The generator is tested every Monday at noon.",
    ]);
    expect((await recall({ query: "lunch", metadata: { floor: 2 } })).map((m) => m.content)).toEqual([
      "Lunch is served in the north wing.",
    ]);
    const [keys] = await recall({ query: "the blue cabinet", context: 1 });
    expect(keys.content).toBe("Maria keeps the spare keys in the blue cabinet.");
    expect(keys.context.map((turn) => turn.content)).toEqual([
      "Who keeps the spare keys?",
      "Thanks, I will ask her tomorrow.",
    ]);
    const logged = await (await db()).activityLog.findMany({ where: { namespaceId: ns.id, operation: "recall" } });
    expect(logged.map((row) => row.status)).toEqual([200, 200, 200, 200]);
  },
);

postgresTest("a statement sent straight to PostgreSQL gets its parameters as the statement types them", async () => {
  await expectParametersRoundTrip();
  await expectBytesRoundTrip();
});

postgresTest("a rolled-back transaction leaves nothing behind", async () => {
  const prisma = await db();
  await expect(
    prisma.$transaction(async (tx) => {
      await tx.organization.create({ data: { id: "org_pg_rollback", name: "x", slug: "pg-rollback" } });
      throw new Error("abort");
    }),
  ).rejects.toThrow("abort");
  expect(await prisma.organization.findUnique({ where: { id: "org_pg_rollback" } })).toBeNull();
});

postgresTest("the CLI talks to PostgreSQL directly", async () => {
  const org = await memgw(["org", "create", "--name", "Postgres Org"], {
    DATABASE_URL: process.env.DATABASE_URL,
  });
  expect(org.stderr).toBe("");
  expect(org.code).toBe(0);
  expect(await (await db()).organization.findUnique({ where: { id: org.json.id } })).toMatchObject({
    name: "Postgres Org",
  });
});

postgresTest("the MCP clients' authorization server keeps its state in PostgreSQL", async () => {
  const registered = await routeRequest(
    new Request("http://gateway.test/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "pg agent",
        redirect_uris: ["http://localhost:8976/callback"],
        token_endpoint_auth_method: "none",
      }),
    }),
  );
  expect(registered.status).toBe(201);
  const { client_id: clientId } = await registered.json();
  const rows = await queryRows<{ id: string; payload: { client_id: string; client_name: string } }>(
    Prisma.sql`SELECT id, payload FROM oauth_records WHERE model = 'Client'`,
  );
  const row = rows.find((one) => one.payload.client_id === clientId);
  expect(row?.payload.client_name).toBe("pg agent");
  // Stored under an HMAC of the id (for tokens, the id is the bearer value), and found again by it.
  expect(row?.id).toMatch(/^[0-9a-f]{64}$/);
  const { DatabaseAdapter } = await import("@/lib/oauth/adapter");
  expect(await new DatabaseAdapter("Client").find(clientId)).toMatchObject({ client_name: "pg agent" });
});

postgresTest("a task run one at a time builds an index concurrently while another waits its turn", async () => {
  const database = await getDatabase();
  const builder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await builder.connect();
  // Without it, a build that waited for ever (as two instances repairing one vector index did) would only show
  // as the test's time running out.
  await builder.query("SET lock_timeout = '10s'");
  await builder.query("CREATE TABLE one_at_a_time_probe (id int)");
  const order: string[] = [];
  let second: Promise<void> | undefined;
  try {
    await database.oneAtATime(async () => {
      second = database.oneAtATime(async () => void order.push("second"), "probe");
      // Once the other task has asked for its turn (as an instance started together with this one would): its
      // connection and this task's have both sent an advisory lock's statement.
      const asking = async () =>
        (
          await builder.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND query LIKE 'SELECT pg_%advisory_lock%'`,
          )
        ).rows[0].n;
      for (let attempt = 0; attempt < 100 && (await asking()) < 2; attempt += 1)
        await new Promise((resume) => setTimeout(resume, 50));
      expect(await asking()).toBe(2);
      await builder.query("CREATE INDEX CONCURRENTLY one_at_a_time_probe_id ON one_at_a_time_probe (id)");
      order.push("first");
    }, "probe");
    await second;
    expect(order).toEqual(["first", "second"]);
  } finally {
    await builder.query("DROP TABLE one_at_a_time_probe");
    await builder.end();
  }
});
