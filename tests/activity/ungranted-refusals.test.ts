// A key refused a namespace of its own organization for want of a grant (issue 54, item 7): the same 404 as for any
// namespace it cannot see, while the activity log keeps which namespace it was, for the console's keys page
// (lib/activity/ungranted-refusals.ts). Another organization's namespace, or none at all, is not recorded.
import { expect, test } from "vitest";
import { startActivity } from "@/lib/activity/activity";
import { ungrantedRefusals } from "@/lib/activity/ungranted-refusals";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

test("a refusal for want of a grant is listed per key and namespace until the grant is made", async () => {
  const { org, key } = await createTenant("Refusals");
  const granted = await createNamespace(key);
  const ungranted = await createNamespace(key);
  const other = await createTenant("Refusals elsewhere");
  const elsewhere = await createNamespace(other.key);
  const limited = await createKey(org.id, { name: "limited", namespaceIds: [granted.id] });
  // Another operation under way: on the embedded database the refusals' rows are held for it; the page reads them.
  const underWay = startActivity();

  const refusedAnswers = [];
  for (const [path, body] of [
    ["/recall", { namespace_id: ungranted.id, query: "x" }],
    ["/remember", { namespace_id: ungranted.id, memories: [{ content: "x" }] }],
    ["/recall", { namespace_id: elsewhere.id, query: "x" }],
    ["/recall", { namespace_id: "ns_doesNotExist0000000000", query: "x" }],
  ] as const) {
    const response = await api("POST", path, { key: limited.secret, body });
    expect(response.status).toBe(404);
    refusedAnswers.push(response.body.error.message.replace(/Namespace \S+/, "Namespace …"));
  }
  // The caller is told the same, whichever namespace it was: nothing tells another organization's ids apart.
  expect(new Set(refusedAnswers).size).toBe(1);

  expect(await ungrantedRefusals(org.id)).toEqual([
    expect.objectContaining({
      apiKeyId: limited.id,
      namespaceId: ungranted.id,
      namespaceName: ungranted.name,
      count: 2,
    }),
  ]);
  expect(await ungrantedRefusals(other.org.id)).toEqual([]);
  // The refusal of another organization's namespace names none in the log.
  const logged = await (
    await db()
  ).activityLog.findMany({ where: { apiKeyId: limited.id }, orderBy: { createdAt: "asc" } });
  expect(logged.map((row) => row.namespaceId)).toEqual([ungranted.id, ungranted.id, null, null]);

  const grant = await api("POST", `/namespaces/${ungranted.id}/grants`, { key, body: { api_key_id: limited.id } });
  expect(grant.status, JSON.stringify(grant.body)).toBe(201);
  expect(await ungrantedRefusals(org.id)).toEqual([]);
  const entry = { orgId: org.id, apiKeyId: limited.id, operation: "recall", status: 200, latencyMs: 1 } as const;
  await underWay.record(entry, { hold: false });
});
