// On the build users run (`npm start`, over HTTP), what B's memory is found to name does not depend on what another
// organization wrote before it: the extractor's part-of-speech model learned every word it lacked from any text
// and split later texts by it ("Okonkwo's Grill" one name once A had written "Okonkwo's.", two before).
import fs from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../../scripts/build-if-needed.mjs";
import { organizationKeyByCli } from "../../helpers/cli";
import { newDataDir } from "../../helpers/embedded-template";
import { createTestDatabase, onPostgres } from "../../helpers/postgres";
import type { ScratchDatabase } from "../../helpers/postgres-databases";
import { freePort, startServer, type RunningServer, serverApi } from "../../helpers/server";

// The same build directory as the other files that start the production server (builds take turns).
process.env.MEMGW_DIST_DIR = ".next-test-server";

const KEY_A = "mgw_entitiesProductionBootstrapKey0123456";
const dir = newDataDir("memgw-entities-production-");
let database: ScratchDatabase | undefined;
let server: RunningServer;
let keyB: string;

/** The API of this file's server (serverApi). */
const api = (method: string, route: string, key: string, body?: unknown) => serverApi(server, method, route, key, body);

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  if (onPostgres()) database = await createTestDatabase();
  const secrets = { KEY_PEPPER: "entities-pepper", ENCRYPTION_KEY: "entities-encryption-key" };
  const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url, ...secrets } : { DATA_DIR: dir };
  server = await startServer({
    ...databaseEnv,
    PORT: String(await freePort()),
    NEXTAUTH_SECRET: "entities-nextauth-secret",
    MEMGW_INIT_ORG_NAME: "Diners Inc",
    MEMGW_INIT_USER_EMAIL: "ops@diners.example",
    MEMGW_INIT_USER_PASSWORD: "a long operator password",
    MEMGW_INIT_API_KEY: KEY_A,
  });
  keyB = (
    await organizationKeyByCli(
      { org: "Notes Inc", key: "notes" },
      "NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE",
      databaseEnv,
    )
  ).secret;
}, 900_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The names B's memory of `text` links, written alone into a new namespace of B's. */
async function namesOfB(text: string): Promise<string[]> {
  const namespace = await api("POST", "/namespaces", keyB, { name: `notes-${crypto.randomUUID()}` });
  expect(namespace.status, JSON.stringify(namespace.body)).toBe(201);
  const written = await api("POST", "/remember", keyB, { namespace_id: namespace.body.data.id, content: text });
  expect(written.status, JSON.stringify(written.body)).toBe(201);
  const listed = await api("GET", `/entities?namespace_id=${namespace.body.data.id}`, keyB);
  expect(listed.status).toBe(200);
  return listed.body.data.map((entity: { name: string }) => entity.name).sort();
}

test("B's memory names the same entities before and after A writes a word the model lacked", async () => {
  const probe = "Lunch at Okonkwo's Grill with Dana.";
  const before = await namesOfB(probe);
  expect(before).toEqual(expect.arrayContaining(["Dana", "Grill", "Okonkwo"]));
  const a = await api("POST", "/namespaces", KEY_A, { name: "dinners" });
  expect(a.status).toBe(201);
  const written = await api("POST", "/remember", KEY_A, {
    namespace_id: a.body.data.id,
    content: "We ate at Okonkwo's.",
  });
  expect(written.status, JSON.stringify(written.body)).toBe(201);
  expect(await namesOfB(probe)).toEqual(before);
}, 300_000);
