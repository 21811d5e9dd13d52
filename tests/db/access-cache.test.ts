import { expect, test } from "vitest";
import { revokeApiKey } from "@/lib/auth/api-keys/revoke-api-key";
import { SYSTEM_ACTOR } from "@/lib/audit/audit";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { Prisma } from "@/lib/generated/prisma/client";

// The reads of a key and of the namespace it reaches are kept for a few seconds (lib/db/access-cache.ts):
// whatever changes them, through the domain or in plain SQL, inside a transaction or not, applies to the
// very next request.

const recall = (key: string, namespaceId: string) =>
  api("POST", "/recall", { key, body: { namespace_id: namespaceId, query: "anything" } });

async function grantedKey() {
  const { org, key: adminKey } = await createTenant();
  const namespace = await createNamespace(adminKey);
  const key = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [namespace.id] });
  // Twice: the second answer is the cached one.
  expect((await recall(key.secret, namespace.id)).status).toBe(200);
  expect((await recall(key.secret, namespace.id)).status).toBe(200);
  return { org, namespace, key };
}

test("a revoked key fails on its very next request, revoked by the domain or in SQL", async () => {
  const first = await grantedKey();
  await revokeApiKey(first.key.id, SYSTEM_ACTOR);
  expect((await recall(first.key.secret, first.namespace.id)).status).toBe(401);

  const second = await grantedKey();
  await (await db()).$executeRaw(Prisma.sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${second.key.id}`);
  expect((await recall(second.key.secret, second.namespace.id)).status).toBe(401);
});

test("a removed grant, a deleted namespace and a change made in a transaction apply at once", async () => {
  const granted = await grantedKey();
  await (await db()).namespaceGrant.deleteMany({ where: { apiKeyId: granted.key.id } });
  expect((await recall(granted.key.secret, granted.namespace.id)).status).toBe(404);

  const deleted = await grantedKey();
  await (await db()).$executeRaw(Prisma.sql`DELETE FROM namespaces WHERE id = ${deleted.namespace.id}`);
  expect((await recall(deleted.key.secret, deleted.namespace.id)).status).toBe(404);

  const changed = await grantedKey();
  await (
    await db()
  ).$transaction(async (tx) => {
    await tx.apiKey.update({ where: { id: changed.key.id }, data: { permissions: ["NAMESPACE_WRITE"] } });
    // A request while the transaction is open is answered as before it, or after it: never cached stale after.
    await tx.$executeRaw(Prisma.sql`SELECT 1`);
  });
  const refused = await recall(changed.key.secret, changed.namespace.id);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe("FORBIDDEN");
});

test("an unknown key is not remembered: the same secret works once it exists", async () => {
  const { org, key: adminKey } = await createTenant();
  const namespace = await createNamespace(adminKey);
  const unknown = "mgw_unknownButValidLooking0000000000000000";
  expect((await recall(unknown, namespace.id)).status).toBe(401);
  expect((await recall(unknown, namespace.id)).status).toBe(401);
  const { hashKeySecret } = await import("@/lib/auth/api-keys/key-secrets");
  const created = await createKey(org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [namespace.id] });
  await (
    await db()
  ).$executeRaw(Prisma.sql`UPDATE api_keys SET secret_hash = ${hashKeySecret(unknown)} WHERE id = ${created.id}`);
  expect((await recall(unknown, namespace.id)).status).toBe(200);
});
