// Every test file gets its own database: an embedded one in a data directory of its own (a copy of the
// run's migrated template), or, in a run on PostgreSQL (`npm run test:postgres`), a database of its own on
// the TEST_DATABASE_URL server.
import fs from "node:fs";
import { afterAll } from "vitest";
import { newDataDir } from "./embedded-template";
import { createTestDatabase, onPostgres } from "./postgres";

const dir = newDataDir("memgw-test-");
process.env.DATA_DIR = dir;
process.env.KEY_PEPPER = "test-pepper";
process.env.PUBLIC_URL = "http://gateway.test";
process.env.MEMGW_PROCESS_ROLE = "test";
// A test's database holds little: a small page cache opens in 1.1 s instead of 2.8 s (the default 512 MB).
process.env.PGLITE_CACHE_MB = "64";
// Test files run two at a time (vitest.config.ts): one embedding worker each.
process.env.EMBEDDING_WORKERS = "1";
delete process.env.DATABASE_URL;
const database = onPostgres() ? await createTestDatabase() : undefined;
if (database) process.env.DATABASE_URL = database.url;

afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db");
  const { closeEmbedder } = await import("@/lib/memory/embeddings");
  await closeEmbedder();
  await closeDatabase();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});
