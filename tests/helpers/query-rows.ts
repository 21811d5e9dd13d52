import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { queryColumnBytes, queryRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Sends awkward parameters straight to the database (queryRows) and expects them back as they were sent:
 * array elements with quotes, backslashes, commas, braces, empty and null; a number, JSON and a time.
 */
export async function expectParametersRoundTrip(): Promise<void> {
  const awkward = ['say "hi"', "back\\slash", "comma, {brace}", "", null];
  const at = new Date("2026-11-24T01:02:03.004Z");
  const [row] = await queryRows<{ texts: (string | null)[]; number: number; json: unknown; at: Date }>(
    Prisma.sql`SELECT ${awkward}::text[] AS texts, ${7}::int AS number,
                      ${JSON.stringify({ a: [1, "two"] })}::jsonb AS json, ${at}::timestamptz AS at`,
  );
  expect(row).toEqual({ texts: awkward, number: 7, json: { a: [1, "two"] }, at });
  // Rows as the statement answers them: several, in order, each column by its name and type; text beyond ASCII,
  // an empty text and a null kept apart; and none at all.
  const text = "naïve café — 東京 😀";
  const rows = await queryRows(
    Prisma.sql`SELECT n, t, n * 1.5::float8 AS "half of three", NULL::text AS none, ''::text AS empty
               FROM (VALUES (1, ${text}), (2, ${"second"})) AS v(n, t) ORDER BY n`,
  );
  expect(rows).toEqual([
    { n: 1, t: text, "half of three": 1.5, none: null, empty: "" },
    { n: 2, t: "second", "half of three": 3, none: null, empty: "" },
  ]);
  expect(await queryRows(Prisma.sql`SELECT 1 AS n WHERE false`)).toEqual([]);
}

/**
 * Bytes both ways on the database under test: a parameter of every byte value and a megabyte (sent in binary
 * format), and queryColumnBytes's rows in their order (a null as none; a value of 3 MiB; parameters with quotes,
 * backslashes and a `$1` written into COPY's statement on PostgreSQL), and its statement's errors.
 */
export async function expectBytesRoundTrip(): Promise<void> {
  const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(1024 * 1024)]);
  const [row] = await queryRows<{ digest: string; size: number }>(
    Prisma.sql`SELECT md5(${bytes}::bytea) AS digest, length(${bytes}::bytea) AS size`,
  );
  expect(row).toEqual({ digest: createHash("md5").update(bytes).digest("hex"), size: bytes.length });

  const awkward = "it's a back\\slash, $1 and E'\\x41'";
  const rows = await queryColumnBytes(Prisma.sql`
    SELECT convert_to(t, 'UTF8') FROM (VALUES (2, ${awkward}), (1, NULL), (3, ${"three"})) AS v(n, t) ORDER BY n`);
  expect(rows.map((value) => Buffer.from(value).toString("utf8"))).toEqual(["", awkward, "three"]);
  const [large] = await queryColumnBytes(Prisma.sql`SELECT decode(repeat('ab', ${3 * 1024 * 1024}::int), 'hex')`);
  expect(large.length).toBe(3 * 1024 * 1024);
  expect(large.every((byte) => byte === 0xab)).toBe(true);
  await expect(queryColumnBytes(Prisma.sql`SELECT ${"not a number"}::int`)).rejects.toThrow(/invalid input syntax/);
}
