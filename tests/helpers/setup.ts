// Every test file gets its own embedded database in a fresh data directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-test-"));
process.env.DATA_DIR = dir;
process.env.KEY_PEPPER = "test-pepper";
process.env.PUBLIC_URL = "http://gateway.test";
process.env.MEMGW_PROCESS_ROLE = "test";
// Test files run two at a time on two cores: one embedding worker each.
process.env.EMBEDDING_WORKERS = "1";
delete process.env.DATABASE_URL;

afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db");
  const { closeEmbedder } = await import("@/lib/memory/embeddings");
  await closeEmbedder();
  await closeDatabase();
  fs.rmSync(dir, { recursive: true, force: true });
});
