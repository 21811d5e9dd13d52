// Every test file gets its own database: an embedded one in a fresh data directory, or, in a run on
// PostgreSQL (`npm run test:postgres`), a database of its own on the TEST_DATABASE_URL server.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { createTestDatabase, onPostgres } from "./postgres";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-test-"));
process.env.DATA_DIR = dir;
process.env.KEY_PEPPER = "test-pepper";
process.env.PUBLIC_URL = "http://gateway.test";
process.env.MEMGW_PROCESS_ROLE = "test";
// Test files run two at a time on two cores: one embedding worker each.
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
