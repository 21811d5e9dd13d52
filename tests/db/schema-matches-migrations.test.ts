// prisma/schema.prisma describes exactly the database that prisma/migrations build: Prisma's schema engine
// compares the test's migrated database (the embedded one, or PostgreSQL in `npm run test:postgres`) with the
// schema, and any difference fails the test with the SQL that would turn the one into the other.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { projectRoot } from "@/lib/config";
import { diffDatabaseToSchema, openTestDatabaseAdapter } from "../helpers/schema-diff";

const schema = fs.readFileSync(path.join(projectRoot(), "prisma/schema.prisma"), "utf8");
let database: Awaited<ReturnType<typeof openTestDatabaseAdapter>> | undefined;

beforeAll(async () => {
  database = await openTestDatabaseAdapter();
});
afterAll(() => database?.close());

test("prisma/schema.prisma matches the migrated database", async () => {
  const drift = await diffDatabaseToSchema(database!.adapter, schema);
  expect(
    drift,
    "prisma/schema.prisma and prisma/migrations differ. The SQL that would turn the migrated database into what " +
      `the schema describes:\n\n${drift}\n`,
  ).toBe("");
});

test("the comparison sees a missing column, a changed vector size and a partial index's condition", async () => {
  const drifted = [
    [/^\s*nextPosition\s.*$/m, ""],
    ['Unsupported("vector(512)")', 'Unsupported("vector(256)")'],
    [`@@index([idempotencyKey], where: raw("(idempotency_key IS NOT NULL)"))`, "@@index([idempotencyKey])"],
  ].reduce((text, [from, to]) => {
    const changed = text.replace(from, to as string);
    expect(changed, `${from} is no longer in prisma/schema.prisma: choose another change`).not.toBe(text);
    return changed;
  }, schema);
  const drift = await diffDatabaseToSchema(database!.adapter, drifted);
  expect(drift).toMatch(/ALTER TABLE "conversation_sessions" DROP COLUMN "next_position"/);
  expect(drift).toContain('"memory_chunks"."embedding": Unsupported("vector(256)") in the schema, vector(512) in');
  expect(drift).toMatch(/DROP INDEX "write_intents_idempotency_key_idx"/);
});
