import { expect } from "vitest";
import { queryRows } from "@/lib/db";
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
}
