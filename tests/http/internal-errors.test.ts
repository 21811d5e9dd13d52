// A failure we did not foresee: the envelope says 500 with a generic message, and nothing half-done is kept.
import { expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { createTenant } from "../helpers/fixtures";
import { Prisma } from "@/lib/generated/prisma/client";

test("an unexpected DB failure → 500 INTERNAL_SERVER_ERROR hiding internals; the change is rolled back", async () => {
  const { key } = await createTenant();
  const prisma = await db();
  // Break the audit log, which namespace creation writes in the same transaction.
  await prisma.$executeRaw(Prisma.sql`ALTER TABLE "audit_logs" RENAME TO "audit_logs_gone"`);
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const response = await api("POST", "/namespaces", { key, body: { name: "half-done" } });
    expect(response.status).toBe(500);
    // One id names the request in the header, the body and the server's log line.
    const requestId = response.headers.get("request-id");
    expect(requestId).toMatch(/^req_[\w-]{16}$/);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: "INTERNAL_SERVER_ERROR",
        message: "Something went wrong on our side. Please try again.",
        request_id: requestId,
      },
    });
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(lines).toContain(`[memgw] unhandled error (request ${requestId}):`);
    expect(JSON.stringify(response.body)).not.toMatch(/audit|relation|SELECT|INSERT/i);
  } finally {
    logged.mockRestore();
    await prisma.$executeRaw(Prisma.sql`ALTER TABLE "audit_logs_gone" RENAME TO "audit_logs"`);
  }
  const list = await api("GET", "/namespaces", { key });
  expect(list.body.data).toEqual([]);
});
