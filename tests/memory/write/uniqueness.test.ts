// Every promise of uniqueness holds when the requests that would break it arrive at once: the database
// enforces it (a unique index), and the request that loses the race gets what it would have got had it come
// second — the existing memory for a remember, 409 CONFLICT for a name or a grant.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { applyMigrations, migrationsDir, type SqlConnection } from "@/lib/db/migrate";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { addMember, inviteMember } from "@/lib/orgs/members";
import { createOrganization } from "@/lib/orgs/organizations";
import { createUser } from "@/lib/orgs/users";
import { Prisma } from "@/lib/generated/prisma/client";
import { api, type ApiResponse } from "../../helpers/api";
import { createKey, createNamespace, createTenant } from "../../helpers/fixtures";
import { storedCounts, termStatisticsConsistent } from "../../helpers/memory";

const AT_ONCE = 12;
const FACT = "Caroline moved to Lisbon in March and now works at the harbour museum on weekends.";

function sendAtOnce(count: number, send: (index: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

function statuses(responses: ApiResponse[]): number[] {
  return responses.map((response) => response.status).sort();
}

async function memoryEvents(namespaceId: string): Promise<number> {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ count: number }[]>(
    Prisma.sql`SELECT count(*)::int AS count FROM events
               WHERE namespace_id = ${namespaceId} AND type = 'memory.created'`,
  );
  return row.count;
}

async function searchStatistics(namespaceId: string) {
  const prisma = await db();
  const [row] = await prisma.$queryRaw<{ chunk_count: number | null; chunks: number }[]>(
    Prisma.sql`SELECT (SELECT chunk_count FROM namespace_search_stats
                       WHERE namespace_id = ${namespaceId}) AS chunk_count,
                      (SELECT count(*)::int FROM memory_chunks WHERE namespace_id = ${namespaceId}) AS chunks`,
  );
  return row;
}

describe("identical remembers sent at once", () => {
  test("store one memory, one set of chunks and one event, and answer as sequential ones do", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const body = { namespace_id: ns.id, content: FACT, identity_id: "caroline", metadata: { source: "chat" } };
    const responses = await sendAtOnce(AT_ONCE, () => api("POST", "/remember", { key, body }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const memories = responses.map((response) => response.body.data);
    const stored = memories.filter((memory) => !memory.deduplicated);
    expect(stored).toHaveLength(1);
    for (const memory of memories) {
      expect(memory).toEqual({ ...stored[0], deduplicated: memory.deduplicated });
    }
    const counts = await storedCounts(ns.id);
    expect(counts.memories).toBe(1);
    expect(counts.chunks).toBe(stored[0].chunk_count);
    expect(await searchStatistics(ns.id)).toEqual({ chunk_count: counts.chunks, chunks: counts.chunks });
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect(await memoryEvents(ns.id)).toBe(1);

    // A sequential one afterwards answers the same memory.
    const again = await api("POST", "/remember", { key, body });
    expect(again.body.data).toEqual({ ...stored[0], deduplicated: true });
  });

  test("in batches racing, each with the same item twice, every item is stored once", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const other = "The harbour museum closes at six on Sundays.";
    const body = { namespace_id: ns.id, memories: [{ content: FACT }, { content: other }, { content: FACT }] };
    const responses = await sendAtOnce(AT_ONCE, () => api("POST", "/remember", { key, body }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const ids = new Set<string>();
    for (const response of responses) {
      const [first, second, repeat] = response.body.data;
      expect(repeat).toMatchObject({ id: first.id, deduplicated: true });
      expect(second.id).not.toBe(first.id);
      ids.add(first.id).add(second.id);
    }
    expect(ids.size).toBe(2);
    const created = responses.flatMap((response) => response.body.data).filter((memory) => !memory.deduplicated);
    expect(created).toHaveLength(2);
    expect((await storedCounts(ns.id)).memories).toBe(2);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
    expect(await memoryEvents(ns.id)).toBe(2);
  });

  test("a single remember and batches holding it, at once, store it once", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const responses = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/remember", {
        key,
        body:
          index % 2 === 0
            ? { namespace_id: ns.id, content: FACT }
            : { namespace_id: ns.id, memories: [{ content: `Item ${index} of a batch.` }, { content: FACT }] },
      }),
    );
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const answers = responses.map((response, index) => (index % 2 === 0 ? response.body.data : response.body.data[1]));
    expect(new Set(answers.map((memory) => memory.id)).size).toBe(1);
    expect(answers.filter((memory) => !memory.deduplicated)).toHaveLength(1);
    expect((await storedCounts(ns.id)).memories).toBe(1 + AT_ONCE / 2);
    expect(await termStatisticsConsistent(ns.id)).toBe(true);
  });

  test("what is never deduplicated is stored every time: allow_duplicate, an expiry, another identity", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const bodies = [
      { namespace_id: ns.id, content: FACT, allow_duplicate: true },
      { namespace_id: ns.id, content: FACT, ttl_seconds: 3600 },
    ];
    const responses = await sendAtOnce(AT_ONCE, (index) => api("POST", "/remember", { key, body: bodies[index % 2] }));
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    expect(responses.every((response) => response.body.data.deduplicated === false)).toBe(true);
    expect((await storedCounts(ns.id)).memories).toBe(AT_ONCE);
    const identities = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: FACT, identity_id: `user-${index}` } }),
    );
    expect(identities.every((response) => response.body.data.deduplicated === false)).toBe(true);
    expect((await storedCounts(ns.id)).memories).toBe(2 * AT_ONCE);
  });
});

describe("entities named at once", () => {
  // Already an upsert on (namespace, key) taken after the namespace's statistics lock: a guard, not a fix.
  test("memories naming one new person, remembered at once, link to one entity", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const responses = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/remember", {
        key,
        body: { namespace_id: ns.id, content: `Caroline visited Chicago on day ${index + 1} of the trip.` },
      }),
    );
    expect(statuses(responses)).toEqual(Array(AT_ONCE).fill(201));
    const entities = await api("GET", `/entities?namespace_id=${ns.id}&page_size=100`, { key });
    const carolines = entities.body.data.filter((entity: { name: string }) => entity.name === "Caroline");
    expect(carolines).toHaveLength(1);
    expect(carolines[0]).toMatchObject({ kind: "person", memory_count: AT_ONCE });
  });
});

describe("an update and deduplication", () => {
  test("an update making a memory another's twin keeps both; its old content is remembered anew", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const other = "The harbour museum closes at six on Sundays.";
    const [first, second] = await sendAtOnce(2, (index) =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: index === 0 ? FACT : other } }),
    );
    const patched = await api("PATCH", `/memories/${second.body.data.id}`, { key, body: { content: FACT } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.content).toBe(FACT);
    // Remembering its words again answers the oldest memory with them, as before: the two were remembered at
    // once, so either may be the older (as the database orders them: created_at, then id).
    const prisma = await db();
    const oldest = await prisma.memory.findFirstOrThrow({
      where: { id: { in: [first.body.data.id, second.body.data.id] } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const again = await api("POST", "/remember", { key, body: { namespace_id: ns.id, content: FACT } });
    expect(again.body.data).toMatchObject({ id: oldest.id, deduplicated: true });
    const old = await sendAtOnce(AT_ONCE, () =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: other } }),
    );
    expect(statuses(old)).toEqual(Array(AT_ONCE).fill(201));
    expect(old.filter((response) => !response.body.data.deduplicated)).toHaveLength(1);
    const expiring = await api("PATCH", `/memories/${first.body.data.id}`, { key, body: { ttl_seconds: 3600 } });
    expect(expiring.status).toBe(200);
    const afterExpiry = await sendAtOnce(AT_ONCE, () =>
      api("POST", "/remember", { key, body: { namespace_id: ns.id, content: FACT } }),
    );
    // The memory set to expire no longer stands for its words; the other one with them (patched) does.
    expect(new Set(afterExpiry.map((response) => response.body.data.id))).toEqual(new Set([second.body.data.id]));
    expect((await storedCounts(ns.id)).memories).toBe(3);
  });
});

describe("names sent at once", () => {
  test("one namespace per name: one 201, the others 409 naming the field", async () => {
    const { key } = await createTenant();
    const responses = await sendAtOnce(AT_ONCE, () =>
      api("POST", "/namespaces", { key, body: { name: "support-bot" } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error).toMatchObject({
        code: "CONFLICT",
        message: 'A namespace named "support-bot" already exists in this organization.',
        details: [{ field: "body.name" }],
      });
    }
    const list = await api("GET", "/namespaces?page_size=100", { key });
    expect(list.body.data.filter((n: { name: string }) => n.name === "support-bot")).toHaveLength(1);
  });

  test("one namespace per external_reference_id, and per name when renamed at once", async () => {
    const { key } = await createTenant();
    const responses = await sendAtOnce(AT_ONCE, (index) =>
      api("POST", "/namespaces", { key, body: { name: `crm-${index}`, external_reference_id: "crm-42" } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect(response.body.error.details).toEqual([expect.objectContaining({ field: "body.external_reference_id" })]);
    }
    const namespaces = await Promise.all(Array.from({ length: AT_ONCE }, () => createNamespace(key)));
    const renames = await sendAtOnce(AT_ONCE, (index) =>
      api("PATCH", `/namespaces/${namespaces[index].id}`, { key, body: { name: "renamed" } }),
    );
    expect(statuses(renames)).toEqual([200, ...Array(AT_ONCE - 1).fill(409)]);
    expect(renames.find((r) => r.status === 409)!.body.error.details).toEqual([
      expect.objectContaining({ field: "body.name" }),
    ]);
  });

  test("one grant per key and namespace: one 201, the others 409", async () => {
    const { key, org } = await createTenant();
    const ns = await createNamespace(key);
    const grantee = await createKey(org.id, { name: "grantee" });
    const responses = await sendAtOnce(AT_ONCE, () =>
      api("POST", `/namespaces/${ns.id}/grants`, { key, body: { api_key_id: grantee.id } }),
    );
    expect(statuses(responses)).toEqual([201, ...Array(AT_ONCE - 1).fill(409)]);
    expect(responses.find((r) => r.status === 409)!.body.error).toMatchObject({
      code: "CONFLICT",
      message: `That API key already has access to namespace ${ns.id}.`,
    });
    const grants = await api("GET", `/namespaces/${ns.id}/grants`, { key });
    expect(grants.body.data.filter((g: { api_key_id?: string }) => g.api_key_id === grantee.id)).toHaveLength(1);
  });
});

describe("organizations, accounts and members made at once (the console's and the command line's)", () => {
  async function settledAtOnce<T>(send: () => Promise<T>) {
    const results = await Promise.allSettled(Array.from({ length: AT_ONCE }, send));
    const fulfilled = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const reasons = results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    return { fulfilled, reasons };
  }

  test("organizations of one name each get a slug of their own", async () => {
    const name = `Acme ${Math.random().toString(36).slice(2, 8)}`;
    const { fulfilled, reasons } = await settledAtOnce(() => createOrganization(name, SYSTEM_ACTOR));
    expect(reasons).toEqual([]);
    const base = name.toLowerCase().replace(" ", "-");
    expect(fulfilled.map((org) => org.slug).sort()).toEqual(
      [base, ...Array.from({ length: AT_ONCE - 1 }, (_, i) => `${base}-${i + 2}`)].sort(),
    );
  });

  test("one account per email address: the others are told it exists", async () => {
    const email = `same-${Math.random().toString(36).slice(2)}@example.com`;
    const { fulfilled, reasons } = await settledAtOnce(() => createUser({ email }));
    expect(fulfilled).toHaveLength(1);
    expect(reasons).toEqual(Array(AT_ONCE - 1).fill(`ConflictError: A user with email ${email} already exists.`));
  });

  test("one membership per person: added or invited at once, the others are told they are a member", async () => {
    const { org } = await createTenant();
    const user = await createUser({ email: `member-${Math.random().toString(36).slice(2)}@example.com` });
    const added = await settledAtOnce(() =>
      addMember({ orgId: org.id, userId: user.id, role: "member" }, SYSTEM_ACTOR),
    );
    expect(added.fulfilled).toHaveLength(1);
    expect(added.reasons).toEqual(
      Array(AT_ONCE - 1).fill(`ConflictError: User ${user.id} is already a member (member) of organization ${org.id}.`),
    );
    const email = `invited-${Math.random().toString(36).slice(2)}@example.com`;
    const invited = await settledAtOnce(() => inviteMember({ orgId: org.id, email, role: "member" }, SYSTEM_ACTOR));
    expect(invited.fulfilled).toHaveLength(1);
    expect(invited.reasons).toHaveLength(AT_ONCE - 1);
    for (const reason of invited.reasons) expect(reason).toMatch(/^ConflictError: User usr_\S+ is already a member/);
    const prisma = await db();
    expect(await prisma.user.count({ where: { email } })).toBe(1);
    expect(await prisma.membership.count({ where: { orgId: org.id, user: { email } } })).toBe(1);
  });
});

describe("the migration that makes deduplication a unique index", () => {
  const MIGRATION = "20261129100000_unique_memory_content";

  test("applies over duplicates stored before: every row is kept and the oldest of each holds the place", async () => {
    const pglite = await PGlite.create({ extensions: { vector } });
    const conn: SqlConnection = {
      exec: (sql) => pglite.exec(sql),
      query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-migrations-"));
    fs.cpSync(migrationsDir(), dir, { recursive: true });
    const held = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-migrations-held-"));
    const later = fs.readdirSync(dir).filter((entry) => entry >= MIGRATION && entry !== "migration_lock.toml");
    for (const entry of later) fs.renameSync(path.join(dir, entry), path.join(held, entry));
    try {
      await applyMigrations(conn, dir);
      const memory = (id: string, minute: number, fields: Record<string, string | null> = {}) => {
        const row = { identity_id: null, scopes: "{}", session_id: null, expires_at: null, ...fields };
        return `INSERT INTO memories (id, org_id, namespace_id, content, content_hash, chunk_count, identity_id,
                  scopes, session_id, expires_at, created_at, updated_at)
                VALUES ('${id}', 'org_1', 'ns_1', 'same words', 'hash-1', 1,
                  ${row.identity_id === null ? "NULL" : `'${row.identity_id}'`}, '${row.scopes}',
                  ${row.session_id === null ? "NULL" : `'${row.session_id}'`},
                  ${row.expires_at === null ? "NULL" : `'${row.expires_at}'`},
                  '2026-11-01T00:${String(minute).padStart(2, "0")}:00Z', now());`;
      };
      await conn.exec(`
        INSERT INTO organizations (id, name, slug, updated_at) VALUES ('org_1', 'Org', 'org-1', now());
        INSERT INTO namespaces (id, org_id, name, updated_at) VALUES ('ns_1', 'org_1', 'ns', now());
        ${memory("mem_c", 3)} ${memory("mem_a", 1)} ${memory("mem_b", 2)}
        ${memory("mem_u2", 5, { identity_id: "u" })} ${memory("mem_u1", 4, { identity_id: "u" })}
        ${memory("mem_s2", 7, { scopes: '{"b": "2", "a": "1"}' })}
        ${memory("mem_s1", 6, { scopes: '{"a": "1", "b": "2"}' })}
        ${memory("mem_turn", 0, { session_id: "chat" })}
        ${memory("mem_expiring", 0, { expires_at: "2099-01-01T00:00:00Z" })}`);
      for (const entry of later) fs.renameSync(path.join(held, entry), path.join(dir, entry));
      expect((await applyMigrations(conn, dir)).applied).toEqual(later);
      const rows = await conn.query<{ id: string; unique_content: boolean }>(
        "SELECT id, unique_content FROM memories ORDER BY id",
      );
      expect(rows.filter((row) => row.unique_content).map((row) => row.id)).toEqual(["mem_a", "mem_s1", "mem_u1"]);
      expect(rows).toHaveLength(9);
      // From now on the database refuses a second holder of a place.
      await expect(
        conn.exec(`INSERT INTO memories (id, org_id, namespace_id, content, content_hash, chunk_count, scopes,
                     unique_content, updated_at)
                   VALUES ('mem_d', 'org_1', 'ns_1', 'same words', 'hash-1', 1, '{"b":"2","a":"1"}', true, now())`),
      ).rejects.toThrow(/memories_unique_content_key/);
    } finally {
      await pglite.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(held, { recursive: true, force: true });
    }
  });
});
