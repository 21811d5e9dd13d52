// The shared rate limiter: counters in the database, so that every server instance counts together.
import { expect, test } from "vitest";
import { db } from "@/lib/db";
import { firstRefusal, hitRateLimit } from "@/lib/rate-limit/limiter";
import { onPostgres } from "../helpers/postgres";

const MINUTE = 60_000;

test("allows `limit` hits per window, then refuses with the seconds until the window ends", async () => {
  const rule = { name: "test-window", limit: 3, windowMs: MINUTE };
  const start = 1_800_000_000_000; // a window boundary (a multiple of a minute)
  const verdicts = [];
  for (let i = 0; i < 4; i++) verdicts.push(await hitRateLimit(rule, "client-a", start + 15_000));
  expect(verdicts.map((v) => [v.allowed, v.remaining])).toEqual([
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
  ]);
  expect(verdicts[3].resetSeconds).toBe(45);
  // Another key has its own count; the next window starts again.
  expect((await hitRateLimit(rule, "client-b", start + 15_000)).allowed).toBe(true);
  expect(await hitRateLimit(rule, "client-a", start + MINUTE)).toMatchObject({ allowed: true, remaining: 2 });
});

test("the count is kept in the database (what another instance would read), with the key hashed", async () => {
  const rule = { name: "test-shared", limit: 2, windowMs: MINUTE };
  await hitRateLimit(rule, "someone@example.com");
  await hitRateLimit(rule, "someone@example.com");
  const rows = await (await db()).rateLimitCounter.findMany({ where: { rule: "test-shared" } });
  expect(rows).toHaveLength(1);
  expect(rows[0].count).toBe(2);
  expect(rows[0].keyHash).not.toContain("someone");
  // A counter another instance wrote is honoured here.
  await (
    await db()
  ).rateLimitCounter.update({
    where: { rule_keyHash: { rule: "test-shared", keyHash: rows[0].keyHash } },
    data: { count: 50 },
  });
  expect((await hitRateLimit(rule, "someone@example.com")).allowed).toBe(false);
});

test("firstRefusal counts every limit and reports the one that ends last", async () => {
  const perIp = { name: "test-ip", limit: 1, windowMs: MINUTE };
  const perEmail = { name: "test-email", limit: 1, windowMs: 15 * MINUTE };
  const at = 1_800_000_000_000;
  expect(
    await firstRefusal(
      [
        [perIp, "1.2.3.4"],
        [perEmail, "a@example.com"],
      ],
      at,
    ),
  ).toBeNull();
  const refused = await firstRefusal(
    [
      [perIp, "1.2.3.4"],
      [perEmail, "a@example.com"],
    ],
    at + 1000,
  );
  expect(refused).toMatchObject({ allowed: false, limit: 1, resetSeconds: 899 });
});

// With PostgreSQL every rule is counted in the database, shared by the instances (tested above).
test.skipIf(onPostgres())(
  "a rule counted in the process on the embedded database counts the same, and writes nothing",
  async () => {
    const rule = { name: "test-in-process", limit: 2, windowMs: MINUTE, inProcessWhenEmbedded: true };
    const start = 1_800_000_000_000;
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await hitRateLimit(rule, "key_a", start + 30_000));
    expect(verdicts.map((v) => [v.allowed, v.remaining, v.resetSeconds])).toEqual([
      [true, 1, 30],
      [true, 0, 30],
      [false, 0, 30],
    ]);
    expect((await hitRateLimit(rule, "key_b", start + 30_000)).allowed).toBe(true);
    expect(await hitRateLimit(rule, "key_a", start + MINUTE)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await (await db()).rateLimitCounter.count({ where: { rule: "test-in-process" } })).toBe(0);
  },
);
