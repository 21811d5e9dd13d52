// Idempotency-Key on remember, forget, PATCH /memories/{id} and namespace creation: a retry of the same
// request within 24 hours gets the first answer and the work is done once; another request with the same
// key is 409 IDEMPOTENCY_CONFLICT; a key is per API key; an error releases it.
import { createHash } from "node:crypto";
import { afterEach, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { deleteExpiredIdempotencyRecords } from "@/lib/http/idempotency";
import { embedder } from "@/lib/memory/embeddings";
import { api, type ApiResponse } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { onPostgres } from "../helpers/postgres";
import { Prisma } from "@/lib/generated/prisma/client";

const FACT = "The boiler service is booked for the first Monday of March.";

afterEach(() => vi.restoreAllMocks());

// A retry taking the key over inside the forget's own transaction (on the embedded database a change from
// outside would wait for that transaction): the claim's token changes just before the answer is kept.
const takeOverDuringReceipt = vi.hoisted(() => ({ keyId: undefined as string | undefined }));
vi.mock("@/lib/erasure-receipts/forget-receipt", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/erasure-receipts/forget-receipt")>();
  const { Prisma: sql } = await import("@/lib/generated/prisma/client");
  return {
    ...original,
    recordForgetReceipt: async (...args: Parameters<typeof original.recordForgetReceipt>) => {
      const [tx] = args;
      const keyId = takeOverDuringReceipt.keyId;
      if (keyId)
        await tx.$executeRaw(sql.sql`UPDATE idempotency_keys SET claim_token = 'retry' WHERE api_key_id = ${keyId}`);
      return original.recordForgetReceipt(...args);
    },
  };
});

async function tenantWithNamespace() {
  const tenant = await createTenant();
  const ns = await createNamespace(tenant.key);
  return { ...tenant, ns };
}

function post(path: string, key: string, body: unknown, idempotencyKey?: string) {
  return api("POST", path, { key, body, headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {} });
}

async function memoryCount(namespaceId: string) {
  return (await db()).memory.count({ where: { namespaceId } });
}

async function activityCount(apiKeyId: string, operation: string) {
  return (await db()).activityLog.count({ where: { apiKeyId, operation } });
}

async function storedRecords(apiKeyId: string) {
  return (await db()).$queryRaw<{ response_status: number | null; response_encrypted: string | null }[]>(
    Prisma.sql`SELECT response_status, response_encrypted FROM idempotency_keys WHERE api_key_id = ${apiKeyId}`,
  );
}

function conflictDetail(response: ApiResponse) {
  return response.body.error.details.map((detail: { field: string; message: string }) => detail.message);
}

describe("a retry with the same key and request", () => {
  test("remember: the first answer again, byte for byte, one memory and one activity row", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    // allow_duplicate: without the key, the same request would store a second memory.
    const body = { namespace_id: ns.id, content: FACT, metadata: { source: "mail" }, allow_duplicate: true };
    const first = await post("/remember", key, body, "remember-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same JSON in another key order is the same request.
    const reordered = { allow_duplicate: true, metadata: { source: "mail" }, content: FACT, namespace_id: ns.id };
    const retry = await post("/remember", key, reordered, "remember-1");
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toBe(first.headers.get("content-type"));
    expect(retry.headers.get("cache-control")).toBe(first.headers.get("cache-control"));
    expect(retry.headers.get("ratelimit-limit")).not.toBeNull();
    expect(await memoryCount(ns.id)).toBe(1);
    expect(await activityCount(keyId, "remember")).toBe(1);

    // Without the key the same request is done again: the key is what made the retry safe.
    expect((await post("/remember", key, body)).status).toBe(201);
    expect(await memoryCount(ns.id)).toBe(2);
  });

  test("forgetting the memory withdraws the kept answer: its content is gone and a retry is refused", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const body = { namespace_id: ns.id, content: FACT };
    const first = await post("/remember", key, body, "erased-1");
    const forgotten = await post("/forget", key, { namespace_id: ns.id, memory_ids: [first.body.data.id] });
    expect(forgotten.body.data.deleted).toBe(1);
    expect((await storedRecords(keyId)).map((record) => record.response_encrypted)).toEqual([null]);
    // Doing it again would bring back what was erased: the retry is refused, and nothing is stored.
    const retry = await post("/remember", key, body, "erased-1");
    expect(retry.status).toBe(409);
    expect(conflictDetail(retry)).toEqual(["IDEMPOTENCY_ANSWER_WITHDRAWN"]);
    expect(await memoryCount(ns.id)).toBe(0);

    // Deleting the namespace withdraws the answers showing its memories too.
    const other = await createNamespace(key);
    await post("/remember", key, { namespace_id: other.id, content: FACT }, "erased-2");
    expect((await api("DELETE", `/namespaces/${other.id}`, { key })).status).toBe(200);
    expect((await storedRecords(keyId)).every((record) => record.response_encrypted === null)).toBe(true);
    expect(conflictDetail(await post("/remember", key, { namespace_id: other.id, content: FACT }, "erased-2"))).toEqual(
      ["IDEMPOTENCY_ANSWER_WITHDRAWN"],
    );
  });

  test("the kept answer is encrypted in the database: the memory's content is not readable there", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    expect((await post("/remember", key, { namespace_id: ns.id, content: FACT }, "secret-1")).status).toBe(201);
    const [record] = await storedRecords(keyId);
    expect(record.response_status).toBe(201);
    expect(record.response_encrypted).not.toContain("boiler");
  });

  test("forget: the retry answers the first count, not 0, and deletes nothing more", async () => {
    const { key, ns } = await tenantWithNamespace();
    const kept = await post("/remember", key, { namespace_id: ns.id, content: "kept" });
    const gone = await post("/remember", key, { namespace_id: ns.id, content: FACT });
    const body = { namespace_id: ns.id, memory_ids: [gone.body.data.id] };
    const first = await post("/forget", key, body, "forget-1");
    expect(first.status).toBe(200);
    expect(first.body.data.deleted).toBe(1);
    const retry = await post("/forget", key, body, "forget-1");
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await api("GET", `/memories/${kept.body.data.id}`, { key })).status).toBe(200);
  });

  test("namespace creation: the same namespace, not a 409 for its own name", async () => {
    const { key } = await createTenant();
    const body = { name: "support-tickets", description: "from the help desk" };
    const first = await post("/namespaces", key, body, "ns-1");
    expect(first.status).toBe(201);
    const retry = await post("/namespaces", key, body, "ns-1");
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect((await post("/namespaces", key, body)).status).toBe(409);
    const listed = await api("GET", "/namespaces", { key });
    expect(listed.body.data.filter((n: { name: string }) => n.name === "support-tickets")).toHaveLength(1);
  });
});

describe("PATCH /memories/{id}", () => {
  test("the retry gets the first answer: one new version, not two", async () => {
    const { key, ns } = await tenantWithNamespace();
    const memory = (await post("/remember", key, { namespace_id: ns.id, content: FACT })).body.data;
    const change = (body: unknown, idempotencyKey: string) =>
      api("PATCH", `/memories/${memory.id}`, { key, body, headers: { "idempotency-key": idempotencyKey } });
    const first = await change({ metadata: { booked: true } }, "patch-1");
    expect(first.status).toBe(200);
    expect(first.body.data.version).toBe(2);
    const retry = await change({ metadata: { booked: true } }, "patch-1");
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    // The same key on another memory is another request.
    const other = await post("/remember", key, { namespace_id: ns.id, content: "another memory" });
    const elsewhere = await api("PATCH", `/memories/${other.body.data.id}`, {
      key,
      body: { metadata: { booked: true } },
      headers: { "idempotency-key": "patch-1" },
    });
    expect(conflictDetail(elsewhere)).toEqual(["IDEMPOTENCY_CONFLICT"]);
    expect((await api("GET", `/memories/${memory.id}`, { key })).body.data.version).toBe(2);
  });
});

describe("another request with the same key", () => {
  test("another body, another path: 409 CONFLICT with IDEMPOTENCY_CONFLICT, nothing done", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const first = await post("/remember", key, { namespace_id: ns.id, content: FACT }, "shared-key");
    expect(first.status).toBe(201);
    const other = await post("/remember", key, { namespace_id: ns.id, content: "something else" }, "shared-key");
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("CONFLICT");
    expect(other.body.error.details).toEqual([{ field: "header.Idempotency-Key", message: "IDEMPOTENCY_CONFLICT" }]);
    const forget = await post("/forget", key, { namespace_id: ns.id, all: true }, "shared-key");
    expect(forget.status).toBe(409);
    expect(conflictDetail(forget)).toEqual(["IDEMPOTENCY_CONFLICT"]);
    expect(await memoryCount(ns.id)).toBe(1);
    expect(await activityCount(keyId, "remember")).toBe(1);
    expect(await activityCount(keyId, "forget")).toBe(0);
    // The first request still gets its answer.
    expect((await post("/remember", key, { namespace_id: ns.id, content: FACT }, "shared-key")).body).toEqual(
      first.body,
    );
  });

  test("bad input is a 400 whatever the key was used for, and claims nothing", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    expect((await post("/remember", key, { namespace_id: ns.id, content: FACT }, "bad-1")).status).toBe(201);
    const bad = await post("/remember", key, { namespace_id: ns.id, content: FACT, surprise: true }, "bad-1");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("BAD_REQUEST");
    const fresh = await post("/remember", key, { namespace_id: ns.id, content: "" }, "bad-2");
    expect(fresh.status).toBe(400);
    expect(await storedRecords(keyId)).toHaveLength(1);
  });

  test("a key whose scopes changed since is not replayed the answer given within the old ones", async () => {
    const { org, ns } = await tenantWithNamespace();
    const scoped = await createKey(org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
    const body = { namespace_id: ns.id, content: FACT, scopes: { team: "a" } };
    expect((await post("/remember", scoped.secret, body, "scoped-1")).status).toBe(201);
    await (await db()).apiKey.update({ where: { id: scoped.id }, data: { scopes: { team: "b" } } });
    const retry = await post("/remember", scoped.secret, body, "scoped-1");
    expect(retry.status).toBe(409);
    expect(conflictDetail(retry)).toEqual(["IDEMPOTENCY_CONFLICT"]);
  });
});

describe("whose key it is", () => {
  test("another API key, of the same organization or another, with the same key value is independent", async () => {
    const { org, key, ns } = await tenantWithNamespace();
    const colleague = await createKey(org.id, { namespaceIds: [ns.id] });
    const body = { namespace_id: ns.id, content: FACT, allow_duplicate: true };
    const mine = await post("/remember", key, body, "same-value");
    const theirs = await post("/remember", colleague.secret, body, "same-value");
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    expect(await memoryCount(ns.id)).toBe(2);

    const stranger = await tenantWithNamespace();
    const elsewhere = await post(
      "/remember",
      stranger.key,
      { namespace_id: stranger.ns.id, content: FACT },
      "same-value",
    );
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a key that lost the permission is refused (403), not replayed the answer", async () => {
    const { org, ns } = await tenantWithNamespace();
    const writer = await createKey(org.id, { namespaceIds: [ns.id] });
    const body = { namespace_id: ns.id, content: FACT };
    expect((await post("/remember", writer.secret, body, "perm-1")).status).toBe(201);
    await (await db()).apiKey.update({ where: { id: writer.id }, data: { permissions: ["NAMESPACE_READ"] } });
    const retry = await post("/remember", writer.secret, body, "perm-1");
    expect(retry.status).toBe(403);
  });

  test("a key without the permission claims nothing", async () => {
    const { org, ns } = await tenantWithNamespace();
    const reader = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    const refused = await post("/remember", reader.secret, { namespace_id: ns.id, content: FACT }, "read-only");
    expect(refused.status).toBe(403);
    expect(await storedRecords(reader.id)).toEqual([]);
  });
});

describe("what is kept", () => {
  test("an error is not kept: the key is released and the corrected retry does the work", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const missing = await post("/remember", key, { namespace_id: "ns_doesnotexist", content: FACT }, "fix-me");
    expect(missing.status).toBe(404);
    const invalid = await post("/remember", key, { namespace_id: ns.id, content: "" }, "fix-me");
    expect(invalid.status).toBe(400);
    expect(await storedRecords(keyId)).toEqual([]);
    const fixed = await post("/remember", key, { namespace_id: ns.id, content: FACT }, "fix-me");
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    expect(await memoryCount(ns.id)).toBe(1);
  });

  test("after 24 hours the key is free again, and expired records are deleted", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const body = { namespace_id: ns.id, content: FACT, allow_duplicate: true };
    const first = await post("/remember", key, body, "day-old");
    const prisma = await db();
    await prisma.$executeRaw(
      Prisma.sql`UPDATE idempotency_keys SET created_at = created_at - interval '23 hours 59 minutes' WHERE
          api_key_id = ${keyId}`,
    );
    expect((await post("/remember", key, body, "day-old")).headers.get("idempotent-replayed")).toBe("true");
    await prisma.$executeRaw(
      Prisma.sql`UPDATE idempotency_keys SET created_at = created_at - interval '2 minutes' WHERE api_key_id =
          ${keyId}`,
    );
    // Past 24 hours another body is no conflict, and the same body is done again.
    const again = await post("/remember", key, body, "day-old");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    expect(await memoryCount(ns.id)).toBe(2);

    // The sweep deletes what is past 24 hours and keeps the rest.
    expect((await post("/remember", key, { ...body, content: "other" }, "old-one")).status).toBe(201);
    await prisma.$executeRaw(
      Prisma.sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE api_key_id = ${keyId}
          AND key_hash = ${createHash("sha256").update("old-one").digest("hex")}`,
    );
    expect(await deleteExpiredIdempotencyRecords()).toBeGreaterThanOrEqual(1);
    expect(await storedRecords(keyId)).toHaveLength(1);
    expect((await post("/remember", key, body, "day-old")).headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("the header", () => {
  test("400 unless 1 to 255 printable ASCII characters, and nothing is done", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    for (const value of ["", "x".repeat(256), "clé", "tab\there"]) {
      const refused = await api("POST", "/remember", {
        key,
        body: { namespace_id: ns.id, content: FACT },
        headers: { "idempotency-key": value },
      });
      expect(refused.status, JSON.stringify(value)).toBe(400);
      expect(refused.body.error.details[0].field).toBe("header.Idempotency-Key");
    }
    expect(await storedRecords(keyId)).toEqual([]);
    const longest = await post("/remember", key, { namespace_id: ns.id, content: FACT }, "~".repeat(255));
    expect(longest.status).toBe(201);
  });

  test("ignored by operations that are not writes (recall)", async () => {
    const { key, ns } = await tenantWithNamespace();
    const body = { namespace_id: ns.id, query: "boiler" };
    expect((await post("/recall", key, body, "not-a-write")).status).toBe(200);
    expect((await post("/recall", key, { ...body, query: "march" }, "not-a-write")).status).toBe(200);
  });
});

describe("at the same time", () => {
  test("requests with the same key at once: done once, the others wait (409) or get the answer", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const body = { namespace_id: ns.id, content: FACT, allow_duplicate: true };
    const responses = await Promise.all(Array.from({ length: 5 }, () => post("/remember", key, body, "racing")));
    const done = responses.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(done).toHaveLength(1);
    for (const response of responses) {
      if (response === done[0]) continue;
      if (response.status === 201) expect(response.body).toEqual(done[0].body);
      else {
        expect(response.status).toBe(409);
        expect(conflictDetail(response)).toEqual(["IDEMPOTENCY_IN_PROGRESS"]);
        expect(response.headers.get("retry-after")).toBe("1");
        expect(response.body.error.message).toMatch(/still running/);
      }
    }
    expect(await memoryCount(ns.id)).toBe(1);
    expect(await activityCount(keyId, "remember")).toBe(1);
    expect((await post("/remember", key, body, "racing")).body).toEqual(done[0].body);
  });

  test("a remember whose key a retry took over while it ran stores nothing and is told to retry", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const prisma = await db();
    const real = embedder().embed.bind(embedder());
    // While the request embeds its content, a retry (its lease having run out) takes the key over.
    vi.spyOn(embedder(), "embed").mockImplementation(async (texts, priority, requester) => {
      await prisma.$executeRaw(
        Prisma.sql`UPDATE idempotency_keys SET claim_token = 'the-retry' WHERE api_key_id = ${keyId}`,
      );
      return real(texts, priority, requester);
    });
    const response = await post("/remember", key, { namespace_id: ns.id, content: FACT }, "overtaken");
    expect(response.status).toBe(409);
    expect(conflictDetail(response)).toEqual(["IDEMPOTENCY_IN_PROGRESS"]);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await memoryCount(ns.id)).toBe(0);
    // The key stays the retry's: this request neither released it nor kept an answer under it.
    const [record] = await prisma.$queryRaw<{ claim_token: string; response_status: number | null }[]>(
      Prisma.sql`SELECT claim_token, response_status FROM idempotency_keys WHERE api_key_id = ${keyId}`,
    );
    expect(record).toEqual({ claim_token: "the-retry", response_status: null });
  });

  test("a forget whose key a retry took over in its own transaction deletes nothing and is told to retry", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const remembered = await post("/remember", key, { namespace_id: ns.id, content: FACT });
    expect(remembered.status).toBe(201);
    takeOverDuringReceipt.keyId = keyId;
    const forget = { namespace_id: ns.id, memory_ids: [remembered.body.data.id] };
    const response = await post("/forget", key, forget, "overtaken-forget");
    takeOverDuringReceipt.keyId = undefined;
    expect(response.status).toBe(409);
    expect(conflictDetail(response)).toEqual(["IDEMPOTENCY_IN_PROGRESS"]);
    expect(await memoryCount(ns.id)).toBe(1);
    expect(await (await db()).erasure.count({ where: { namespaceId: ns.id } })).toBe(0);
  });

  test("a claim left by a process that died is taken over; a live one is waited for", async () => {
    const { key, keyId, ns } = await tenantWithNamespace();
    const body = { namespace_id: ns.id, content: FACT, allow_duplicate: true };
    expect((await post("/remember", key, body, "orphan")).status).toBe(201);
    const prisma = await db();
    // As the row looks while its request runs, held by this process with a live lease.
    const asRunning = (processId: string, lease: string) =>
      prisma.$executeRaw(Prisma.sql`UPDATE idempotency_keys SET response_status = NULL, response_encrypted = NULL,
          completed_at = NULL,
                process_id = COALESCE(${processId || null}, process_id), locked_until = now() + ${lease}::interval
         WHERE api_key_id = ${keyId}`);
    await asRunning("", "1 minute");
    const waiting = await post("/remember", key, body, "orphan");
    expect(waiting.status).toBe(409);
    expect(conflictDetail(waiting)).toEqual(["IDEMPOTENCY_IN_PROGRESS"]);
    // Its lease ended: its request is gone, the retry does the work.
    await asRunning("", "-1 second");
    const afterLease = await post("/remember", key, body, "orphan");
    expect(afterLease.status).toBe(201);
    expect(afterLease.headers.get("idempotent-replayed")).toBeNull();
    // On the embedded database a claim of another process is abandoned at once (a restart); on PostgreSQL,
    // which several instances may share, it is another instance's until its lease ends.
    await asRunning("a-process-that-exited", "1 minute");
    const afterRestart = await post("/remember", key, body, "orphan");
    if (onPostgres()) {
      expect(conflictDetail(afterRestart)).toEqual(["IDEMPOTENCY_IN_PROGRESS"]);
      expect(await memoryCount(ns.id)).toBe(2);
      return;
    }
    expect(afterRestart.status).toBe(201);
    expect(afterRestart.headers.get("idempotent-replayed")).toBeNull();
    expect(await memoryCount(ns.id)).toBe(3);
    // A claim left by another request is not taken over by a different one.
    await asRunning("a-process-that-exited", "1 minute");
    const other = await post("/remember", key, { ...body, content: "other" }, "orphan");
    expect(conflictDetail(other)).toEqual(["IDEMPOTENCY_CONFLICT"]);
  });
});
