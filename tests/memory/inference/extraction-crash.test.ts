// A chat model's extraction across a crash, on the production build (`npm start`) over HTTP: the server is killed
// with SIGKILL while the model holds the job's request unanswered, started again on the same database, and the job
// runs again and finishes; the memory written before it was never at risk. On the embedded database always; on
// PostgreSQL with TEST_DATABASE_URL (there the job is taken again once its lease ends).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../../scripts/build-if-needed.mjs";
import { newDataDir } from "../../helpers/embedded-template";
import { startOpenAIServer } from "../../helpers/openai-server";
import { createTestDatabase, postgresTest } from "../../helpers/postgres";
import { freePort, startServer, type RunningServer } from "../../helpers/server";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_extractionCrashBootstrapKey0123456789a";

const cleanups: (() => Promise<void>)[] = [];
beforeAll(() => {
  buildIfNeeded({ quiet: true });
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function until<T>(check: () => Promise<T | undefined>, what: string, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function crashDuringExtraction(env: Record<string, string>) {
  let server: RunningServer | undefined;
  let calls = 0;
  // The server is killed once both have happened: the model holds the first request, and the remember's answer has
  // arrived (a job worker may take the job before that answer is written, most often on PostgreSQL).
  let modelHolds!: () => void;
  const held = new Promise<void>((resolve) => (modelHolds = resolve));
  const openai = await startOpenAIServer({
    chat: () => {
      calls += 1;
      if (calls === 1) {
        modelHolds();
        return { hang: true };
      }
      const answer = {
        facts: [{ text: "Rui lives in Braga.", fact_key: "home_city", sources: [1], action: "add", replaces: [] }],
        invalidate: [],
      };
      return {
        json: {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: "crash-chat",
          choices: [
            { index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(answer) } },
          ],
          usage: { prompt_tokens: 200, completion_tokens: 40, total_tokens: 240 },
        },
      };
    },
  });
  cleanups.push(() => openai.close());
  const port = await freePort();
  const start = async () => {
    const started = await startServer({
      PORT: String(port),
      KEY_PEPPER: "extraction-crash-pepper",
      ENCRYPTION_KEY: "extraction-crash-encryption-key",
      MEMGW_INIT_ORG_NAME: "Crash Facts",
      MEMGW_INIT_USER_EMAIL: "ops@facts.example",
      MEMGW_INIT_USER_PASSWORD: "a long operator password",
      MEMGW_INIT_API_KEY: API_KEY,
      EMBEDDING_WORKERS: "1",
      OPENAI_BASE_URL: openai.baseURL,
      OPENAI_API_KEY: "sk-test",
      CHAT_MODEL: "crash-chat",
      INFER_RETRY_MS: "100",
      ...env,
    });
    cleanups.push(() => started.stop());
    return started;
  };
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server!.base}/api/v1${route}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  server = await start();
  const namespace = await call("POST", "/namespaces", { name: "facts" });
  expect(namespace.status).toBe(201);
  const written = await call("POST", "/remember", {
    namespace_id: namespace.body.data.id,
    identity_id: "rui",
    content: "Rui here: we finally moved to Braga last week.",
    infer: true,
  });
  expect(written.status).toBe(201);
  expect(written.body.data.inference.status).toBe("queued");
  await held;
  process.kill(server.pid, "SIGKILL");
  await server.exited;
  expect(calls).toBe(1);

  server = await start();
  const memoryId = written.body.data.id;
  const done = await until(async () => {
    const { body } = await call("GET", `/memories/${memoryId}`);
    return body.data.inference.status === "done" ? body.data : undefined;
  }, "the extraction finishes after the restart");
  expect(done.content).toBe("Rui here: we finally moved to Braga last week.");
  expect(done.inference).toMatchObject({ status: "done", attempts: 2, error: null });
  expect(done.inference.facts).toHaveLength(1);
  const fact = await call("GET", `/memories/${done.inference.facts[0]}`);
  expect(fact.body.data).toMatchObject({
    content: "Rui lives in Braga.",
    kind: "fact",
    derived_from: [memoryId],
    identity_id: "rui",
  });
  // Applied once: the namespace holds the memory and its one fact.
  const listed = await call("GET", `/memories?namespace_id=${namespace.body.data.id}`);
  expect(listed.body.data).toHaveLength(2);
  expect(calls).toBe(2);

  // The validity rules through the production build: supersedes names only what the key can read in the
  // namespace (404, nothing written), a fact_key replaces the slot's current memory, recall and the profile answer
  // with what holds.
  const other = await call("POST", "/namespaces", { name: "elsewhere" });
  const foreign = await call("POST", "/remember", { namespace_id: other.body.data.id, content: "Kept elsewhere." });
  const refused = await call("POST", "/remember", {
    namespace_id: namespace.body.data.id,
    content: "Tries to close another namespace's memory.",
    supersedes: [foreign.body.data.id],
  });
  expect(refused.status).toBe(404);
  expect((await call("GET", `/memories?namespace_id=${namespace.body.data.id}`)).body.data).toHaveLength(2);
  expect((await call("GET", `/memories/${foreign.body.data.id}`)).body.data.invalid_at).toBeNull();
  const slot = { namespace_id: namespace.body.data.id, identity_id: "rui", fact_key: "employer" };
  const before = await call("POST", "/remember", {
    ...slot,
    content: "Rui works at a bakery.",
    valid_at: "2025-01-01",
  });
  const now = await call("POST", "/remember", { ...slot, content: "Rui works at a library.", valid_at: "2026-03-01" });
  expect((await call("GET", `/memories/${before.body.data.id}`)).body.data).toMatchObject({
    superseded_by: now.body.data.id,
    invalid_at: "2026-03-01T00:00:00.000Z",
    supersession: { kind: "fact_key" },
  });
  const recalled = await call("POST", "/recall", { ...slot, fact_key: undefined, query: "Where does Rui work?" });
  const ids = recalled.body.data.map((match: { memory_id: string }) => match.memory_id);
  expect(ids).toContain(now.body.data.id);
  expect(ids).not.toContain(before.body.data.id);
  const profile = await call("GET", `/identities/rui/profile?namespace_id=${namespace.body.data.id}`);
  expect(profile.status).toBe(200);
  const facts = profile.body.data.facts.map((fact: { content: string; fact_key: string | null }) => fact.content);
  expect(facts).toContain("Rui works at a library.");
  expect(facts).not.toContain("Rui works at a bakery.");
  expect(profile.body.data.changes[0]).toMatchObject({
    replaced: { memory_id: before.body.data.id },
    by: { memory_id: now.body.data.id },
  });
}

test("embedded: kill -9 while the model holds the extraction; after a restart the job finishes once", async () => {
  const dataDir = newDataDir("memgw-extraction-crash-");
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  await crashDuringExtraction({ DATA_DIR: dataDir, DATABASE_URL: "" });
}, 300_000);

postgresTest(
  "PostgreSQL: the same across kill -9",
  async () => {
    const database = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-extraction-crash-pg-"));
    cleanups.push(async () => {
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    await crashDuringExtraction({ DATA_DIR: dataDir, DATABASE_URL: database.url });
  },
  300_000,
);
