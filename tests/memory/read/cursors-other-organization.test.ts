// Signed cursors (lib/http/signed-cursor.ts) of every listing that has them — the events feed, memories,
// entities — carried to another organization: refused exactly like a cursor the API never made (the same
// status, code, message and details), so nothing says the cursor is valid somewhere else. Within its own
// organization a cursor of another listing still says so, and a cursor made before the signature covered the
// organization still reads its own listing.
import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { serverSecret } from "@/lib/secrets";
import { api } from "../../helpers/api";
import { settled } from "../../helpers/settled";
import { createNamespace, createTenant } from "../../helpers/fixtures";

/** A tenant with a namespace of three memories naming people and places (so entities have more than a page). */
async function tenantWithMemories(name: string) {
  const tenant = await createTenant(name);
  const ns = await createNamespace(tenant.key);
  for (const content of [
    "Caroline hiked the Grand Canyon with Melanie.",
    "Melanie moved to Portugal last summer.",
    "Zebulon Pike visited Yellowstone with Caroline.",
  ]) {
    const remembered = await api("POST", "/remember", { key: tenant.key, body: { namespace_id: ns.id, content } });
    expect(remembered.status, JSON.stringify(remembered.body)).toBe(201);
  }
  await settled();
  return { key: tenant.key, ns };
}

/** A listing's status and error, less the request's own id. */
async function refusal(key: string, path: string) {
  const response = await api("GET", path, { key });
  const { request_id: _requestId, ...error } = response.body.error ?? {};
  return { status: response.status, error };
}

describe("a cursor of another organization", () => {
  test("is refused like an invented one by the events feed, the memories list and the entities list", async () => {
    const a = await tenantWithMemories("Cursor Owner");
    const b = await tenantWithMemories("Cursor Borrower");

    const listings = [
      {
        name: "events",
        page: () => `/events?limit=1`,
        next: (body: { data: { next_cursor: string } }) => body.data.next_cursor,
        withCursor: (_t: typeof a, cursor: string) => `/events?limit=1&after=${encodeURIComponent(cursor)}`,
      },
      {
        name: "memories",
        page: (t: typeof a) => `/memories?namespace_id=${t.ns.id}&page_size=1`,
        next: (body: { pagination: { nextCursor: string } }) => body.pagination.nextCursor,
        withCursor: (t: typeof a, cursor: string) =>
          `/memories?namespace_id=${t.ns.id}&page_size=1&cursor=${encodeURIComponent(cursor)}`,
      },
      {
        name: "entities",
        page: (t: typeof a) => `/entities?namespace_id=${t.ns.id}&page_size=1`,
        next: (body: { pagination: { nextCursor: string } }) => body.pagination.nextCursor,
        withCursor: (t: typeof a, cursor: string) =>
          `/entities?namespace_id=${t.ns.id}&page_size=1&cursor=${encodeURIComponent(cursor)}`,
      },
    ];
    for (const listing of listings) {
      const first = await api("GET", listing.page(a), { key: a.key });
      expect(first.status, listing.name).toBe(200);
      const cursor = listing.next(first.body);
      expect(cursor, listing.name).toBeTruthy();
      // Its own organization follows it.
      expect((await api("GET", listing.withCursor(a, cursor), { key: a.key })).status, listing.name).toBe(200);

      // Another organization, in a listing of the same shape: the same answer as for an invented cursor.
      const [text] = cursor.split(".");
      const invented = `${text}.${Buffer.alloc(16, 7).toString("base64url")}`;
      const borrowed = await refusal(b.key, listing.withCursor(b, cursor));
      const made = await refusal(b.key, listing.withCursor(b, invented));
      expect(borrowed.status, listing.name).toBe(400);
      expect(borrowed, listing.name).toEqual(made);
      expect(borrowed.error.message, listing.name).not.toMatch(/another listing/);
    }
  });

  test("its own organization's cursor of another listing still says so", async () => {
    const a = await tenantWithMemories("Cursor Own Listing");
    const other = await createNamespace(a.key);
    const first = await api("GET", `/memories?namespace_id=${a.ns.id}&page_size=1`, { key: a.key });
    const cursor = first.body.pagination.nextCursor as string;
    const moved = await api("GET", `/memories?namespace_id=${other.id}&cursor=${encodeURIComponent(cursor)}`, {
      key: a.key,
    });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toContain("another listing");
  });

  test("a cursor signed before the signature covered the organization reads its own listing only", async () => {
    const a = await tenantWithMemories("Cursor Legacy");
    const b = await tenantWithMemories("Cursor Legacy Borrower");
    const first = await api("GET", "/events?limit=1", { key: a.key });
    const [text] = (first.body.data.next_cursor as string).split(".");
    // How cursors were signed until now: the text alone, with the listing kind's key.
    const key = createHmac("sha256", serverSecret("KEY_PEPPER")).update("memgw events cursor v1").digest();
    const legacy = `${text}.${createHmac("sha256", key).update(text).digest().subarray(0, 16).toString("base64url")}`;
    const own = await api("GET", `/events?limit=1&after=${encodeURIComponent(legacy)}`, { key: a.key });
    expect(own.status).toBe(200);
    const second = await api("GET", `/events?limit=1&after=${encodeURIComponent(first.body.data.next_cursor)}`, {
      key: a.key,
    });
    expect(own.body.data.events).toEqual(second.body.data.events);
    const borrowed = await refusal(b.key, `/events?limit=1&after=${encodeURIComponent(legacy)}`);
    const made = `${text}.AAAAAAAAAAAAAAAAAAAAAA`;
    const invented = await refusal(b.key, `/events?limit=1&after=${encodeURIComponent(made)}`);
    expect(borrowed.status).toBe(400);
    expect(borrowed).toEqual(invented);
  });
});
