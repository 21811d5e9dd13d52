// Every write is all or nothing across a crash (lib/memory/store/write-intents.ts, lib/http/idempotency.ts): the
// real server (the production build, `npm start`) kills itself with SIGKILL at a failpoint
// (MEMGW_TEST_CRASH_AT) in the middle of each kind of write, is started again on the same database, and the
// tables are checked row by row: an unacknowledged request left nothing, and its retry with the same
// Idempotency-Key did the work exactly once (memories, chunks, postings, term statistics, conversation
// positions contiguous and unique). On the embedded database always; on PostgreSQL with TEST_DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { buildIfNeeded } from "../../../scripts/build-if-needed.mjs";
import { createTestDatabase, onPostgres, postgresTest } from "../../helpers/postgres";
import { freePort, startServer, type RunningServer } from "../../helpers/server";
import { newDataDir } from "../../helpers/embedded-template";

// The same build directory as tests/startup/server.test.ts (builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";

const API_KEY = "mgw_crashWritesBootstrapKey0123456789abcdef";
/** More than two groups of 32 one-chunk memories: a batch and a conversation are written in three transactions. */
const BATCH = 70;

type Query = <Row = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<Row[]>;

const servers: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(() => {
  buildIfNeeded({ quiet: true });
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Deployment {
  env: Record<string, string>;
  /** The database's rows, read directly: on the embedded database only while no server runs. */
  inspect<T>(read: (query: Query) => Promise<T>): Promise<T>;
  postgres: boolean;
}

function embeddedDeployment(): Deployment {
  const dataDir = newDataDir("memgw-crash-writes-");
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    // Never the PostgreSQL database a run on it gives every test file (tests/helpers/setup.ts).
    env: { DATA_DIR: dataDir, DATABASE_URL: "" },
    postgres: false,
    async inspect(read) {
      const pglite = await PGlite.create({ dataDir, extensions: { vector } });
      try {
        return await read(async (sql, params) => (await pglite.query<never>(sql, params)).rows);
      } finally {
        await pglite.close();
      }
    },
  };
}

async function postgresDeployment(): Promise<Deployment> {
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-crash-writes-pg-"));
  cleanups.push(async () => {
    await client.end();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    postgres: true,
    inspect: (read) => read(async (sql, params) => (await client.query(sql, params)).rows),
  };
}

async function start(deployment: Deployment, port: number, crashAt?: string) {
  const server = await startServer({
    PORT: String(port),
    KEY_PEPPER: "crash-writes-pepper",
    ENCRYPTION_KEY: "crash-writes-encryption-key",
    MEMGW_INIT_ORG_NAME: "Crash Inc",
    MEMGW_INIT_USER_EMAIL: "ops@crash.example",
    MEMGW_INIT_USER_PASSWORD: "a long operator password",
    MEMGW_INIT_API_KEY: API_KEY,
    EMBEDDING_WORKERS: "1",
    ...deployment.env,
    ...(crashAt ? { MEMGW_TEST_CRASH_AT: crashAt } : {}),
  });
  servers.push(server);
  return server;
}

interface Answer {
  status: number;
  replayed: string | null;
  body: any;
}

async function call(
  server: RunningServer,
  method: string,
  route: string,
  body?: unknown,
  idempotencyKey?: string,
): Promise<Answer> {
  const ndjson = typeof body === "string";
  const response = await fetch(`${server.base}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${API_KEY}`,
      "content-type": ndjson ? "application/x-ndjson" : "application/json",
      ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
    },
    body: body === undefined ? undefined : ndjson ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: await response.json(),
  };
}

/** The request dies with the server, which killed itself at the failpoint: no answer reached the client. */
async function crashes(server: RunningServer, request: Promise<unknown>) {
  await expect(request).rejects.toThrow();
  expect(await server.exited).not.toBe(0);
  expect(server.output()).toContain("MEMGW_TEST_CRASH_AT=");
}

/**
 * The retry of a request whose first attempt died: on PostgreSQL its claim is taken over when its lease
 * ends (15 s), until then the answer is 409 IDEMPOTENCY_IN_PROGRESS.
 */
async function retry(send: () => Promise<Answer>): Promise<Answer> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const answer = await send();
    const inProgress = answer.body?.error?.details?.[0]?.message === "IDEMPOTENCY_IN_PROGRESS";
    if (!inProgress || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

async function until(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 45_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function createNamespace(server: RunningServer, name: string): Promise<string> {
  const created = await call(server, "POST", "/namespaces", { name });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

function facts(prefix: string, count = BATCH) {
  return Array.from({ length: count }, (_, i) => `${prefix} fact ${i}: the courier left parcel ${i} at dock ${i % 7}.`);
}

function importBody(count = BATCH) {
  const header = {
    type: "header",
    format: "memory-gateway-export",
    version: 1,
    exported_at: "2025-01-01T00:00:00.000Z",
    namespace: { id: "ns_elsewhere", name: "elsewhere", description: null, external_reference_id: null },
    embedding_model: "another-model",
    vectors: false,
    scopes: {},
  };
  const lines = Array.from({ length: count }, (_, i) => {
    const turn = i % 2 === 1;
    return {
      type: "memory",
      id: `mem_old_${i}`,
      content: `Imported fact ${i}: the ferry ${i} sails at ${i % 12} o'clock.`,
      metadata: { n: i },
      scopes: {},
      identity_id: null,
      session_id: turn ? "imported-talk" : null,
      position: turn ? (i - 1) / 2 : null,
      role: turn ? "user" : null,
      occurred_at: "2024-01-01T00:00:00.000Z",
      created_at: "2024-01-02T00:00:00.000Z",
      updated_at: "2024-01-02T00:00:00.000Z",
      expires_at: null,
      version: 1,
      history: [],
      embedding_model: null,
    };
  });
  return [header, ...lines].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

async function listContents(server: RunningServer, namespaceId: string): Promise<string[]> {
  const contents: string[] = [];
  let cursor: string | null = null;
  do {
    const next = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const query: string = `namespace_id=${namespaceId}&page_size=100${next}`;
    const page = await call(server, "GET", `/memories?${query}`);
    expect(page.status).toBe(200);
    contents.push(...page.body.data.map((memory: { content: string }) => memory.content));
    cursor = page.body.pagination.nextCursor;
  } while (cursor);
  return contents.sort();
}

/** The rows of every table a memory lives in agree with each other, and no write is left unfinished. */
async function assertConsistent(query: Query) {
  const [intents] = await query<{ intents: number; members: number }>(
    `SELECT (SELECT count(*)::int FROM write_intents) AS intents,
            (SELECT count(*)::int FROM write_intent_memories) AS members`,
  );
  expect(intents).toEqual({ intents: 0, members: 0 });
  // Every memory has exactly its chunks.
  expect(
    await query(
      `SELECT m.id FROM memories m LEFT JOIN memory_chunks c ON c.memory_id = m.id
       GROUP BY m.id, m.chunk_count HAVING count(c.id) <> m.chunk_count`,
    ),
  ).toEqual([]);
  // The namespace's length statistics count exactly its chunks.
  expect(
    await query(
      `SELECT s.namespace_id FROM namespace_search_stats s
       LEFT JOIN (SELECT namespace_id, count(*) AS n, sum(term_count) AS t FROM memory_chunks GROUP BY namespace_id) c
         USING (namespace_id)
       WHERE s.chunk_count <> COALESCE(c.n, 0) OR s.total_terms <> COALESCE(c.t, 0)`,
    ),
  ).toEqual([]);
  // Document frequencies are what the postings say, term by term.
  expect(
    await query(
      `SELECT namespace_id, term FROM namespace_terms t
       FULL JOIN (SELECT namespace_id, term, count(*) AS df FROM chunk_terms GROUP BY namespace_id, term) p
         USING (namespace_id, term)
       WHERE t.df IS DISTINCT FROM p.df`,
    ),
  ).toEqual([]);
  // Postings only of chunks that exist.
  expect(
    await query(
      `SELECT p.chunk_id FROM chunk_terms p LEFT JOIN memory_chunks c ON c.id = p.chunk_id WHERE c.id IS NULL`,
    ),
  ).toEqual([]);
}

async function contentsIn(query: Query, namespaceId: string): Promise<string[]> {
  const rows = await query<{ content: string }>(`SELECT content FROM memories WHERE namespace_id = $1`, [namespaceId]);
  return rows.map((row) => row.content).sort();
}

/** A conversation's turns: positions 0 … n−1, each once, in the order of `contents`; the next one is n. */
async function assertConversation(query: Query, namespaceId: string, sessionId: string, contents: string[]) {
  const turns = await query<{ content: string; position: number }>(
    `SELECT content, session_position AS position FROM memories
     WHERE namespace_id = $1 AND session_id = $2 ORDER BY session_position`,
    [namespaceId, sessionId],
  );
  expect(turns.map((turn) => turn.position)).toEqual(contents.map((_, i) => i));
  expect(turns.map((turn) => turn.content)).toEqual(contents);
  const [session] = await query<{ next: number }>(
    `SELECT next_position AS next FROM conversation_sessions WHERE namespace_id = $1 AND session_id = $2`,
    [namespaceId, sessionId],
  );
  expect(Number(session.next)).toBe(contents.length);
}

/** A step: started with its failpoint, it checks the previous step's crash and retries, then crashes. */
interface Step {
  crashAt?: string;
  run(server: RunningServer): Promise<void>;
}

async function runSteps(deployment: Deployment, steps: Step[]) {
  const port = await freePort();
  for (const step of steps) {
    const server = await start(deployment, port, step.crashAt);
    await step.run(server);
    if (!step.crashAt) await server.stop();
  }
}

/** The write kinds, crashed one per server start, retried (or found gone) after the next start. */
async function crashEveryWrite(deployment: Deployment, { all }: { all: boolean }) {
  const ns: Record<string, string> = {};
  const batch = facts("Batch");
  const keyless = facts("Keyless");
  const conversation = facts("Turn");
  const earlierTurns = ["Hello there.", "Hi! How can I help?", "I need to ship parcels."];
  const messages = conversation.map((content) => ({ role: "user", content }));
  const rememberBatch = () =>
    call(
      lastServer,
      "POST",
      "/remember",
      { namespace_id: ns.batch, memories: batch.map((content) => ({ content })) },
      "batch-1",
    );
  const rememberConversation = () =>
    call(lastServer, "POST", "/remember", { namespace_id: ns.conversation, session_id: "talk", messages }, "conv-1");
  const rememberOne = () =>
    call(
      lastServer,
      "POST",
      "/remember",
      { namespace_id: ns.single, content: "The only fact.", allow_duplicate: true },
      "one-1",
    );
  const patch = () =>
    call(lastServer, "PATCH", `/memories/${ns.patchedMemory}`, { content: "Changed words." }, "patch-1");
  const forget = () => call(lastServer, "POST", "/forget", { namespace_id: ns.forget, all: true }, "forget-1");
  let lastServer: RunningServer;
  const at = (server: RunningServer) => (lastServer = server);

  const steps: Step[] = [
    {
      crashAt: "remember.group.2",
      async run(server) {
        at(server);
        for (const name of ["batch", "keyless", "conversation", "import", "single", "patch", "forget", "deleted"]) {
          ns[name] = await createNamespace(server, name);
        }
        const seeded = await call(server, "POST", "/remember", {
          namespace_id: ns.conversation,
          session_id: "talk",
          messages: earlierTurns.map((content) => ({ role: "user", content })),
        });
        expect(seeded.status).toBe(201);
        const patched = await call(server, "POST", "/remember", { namespace_id: ns.patch, content: "Original words." });
        ns.patchedMemory = patched.body.data.id;
        for (const name of ["forget", "deleted"]) {
          const stored = await call(server, "POST", "/remember", {
            namespace_id: ns[name],
            memories: facts(name, 3).map((content) => ({ content })),
          });
          expect(stored.status).toBe(201);
        }
        // A batch of three groups, killed after its second committed.
        await crashes(server, rememberBatch());
      },
    },
    {
      crashAt: "conversation.group.1",
      async run(server) {
        at(server);
        // The batch's two committed groups were rolled back; its retry stores it once.
        if (!deployment.postgres) expect(await listContents(server, ns.batch)).toEqual([]);
        const retried = await retry(rememberBatch);
        expect(retried.status).toBe(201);
        expect(retried.replayed).toBeNull();
        expect(retried.body.data.map((m: { content: string }) => m.content)).toEqual(batch);
        expect((await rememberBatch()).replayed).toBe("true");
        expect(await listContents(server, ns.batch)).toEqual([...batch].sort());
        // A conversation of three groups, killed after its first (a failpoint of conversations only).
        await crashes(server, rememberConversation());
      },
    },
    {
      crashAt: "remember.group.2",
      async run(server) {
        at(server);
        const retried = await retry(rememberConversation);
        expect(retried.status).toBe(201);
        // The positions the lost attempt had: right after the three earlier turns, no gap.
        expect(retried.body.data.map((m: { position: number }) => m.position)).toEqual(
          conversation.map((_, i) => earlierTurns.length + i),
        );
        // Without an Idempotency-Key: nothing of it stays.
        await crashes(
          server,
          call(server, "POST", "/remember", {
            namespace_id: ns.keyless,
            memories: keyless.map((content) => ({ content })),
          }),
        );
      },
    },
    {
      crashAt: "import.group.2",
      async run(server) {
        at(server);
        // On PostgreSQL the dead instance's intent is rolled back once its lease ends.
        await until(async () => (await listContents(server, ns.keyless)).length === 0, "the keyless batch is gone");
        await crashes(server, call(server, "POST", `/namespaces/${ns.import}/import`, importBody()));
      },
    },
    ...(all
      ? [
          {
            crashAt: "idempotency.before-answer",
            async run(server: RunningServer) {
              at(server);
              await until(async () => (await listContents(server, ns.import)).length === 0, "the import is gone");
              const imported = await call(server, "POST", `/namespaces/${ns.import}/import`, importBody());
              expect(imported.status).toBe(201);
              expect(imported.body.data.imported).toBe(BATCH);
              // One memory, written and committed; the process dies before its answer is kept.
              await crashes(server, rememberOne());
            },
          },
          {
            crashAt: "update.in-transaction",
            async run(server: RunningServer) {
              at(server);
              const retried = await retry(rememberOne);
              expect(retried.status).toBe(201);
              expect(await listContents(server, ns.single)).toEqual(["The only fact."]);
              await crashes(server, patch());
            },
          },
          {
            // The PATCH's retry reaches this point first; the forget second.
            crashAt: "idempotency.before-answer*2",
            async run(server: RunningServer) {
              at(server);
              const unchanged = await call(server, "GET", `/memories/${ns.patchedMemory}`);
              expect(unchanged.body.data).toMatchObject({ content: "Original words.", version: 1 });
              const retried = await retry(patch);
              expect(retried.status).toBe(200);
              expect(retried.body.data).toMatchObject({ content: "Changed words.", version: 2 });
              await crashes(server, forget());
            },
          },
          {
            crashAt: "namespace-delete.in-transaction",
            async run(server: RunningServer) {
              at(server);
              // Committed before the process died (with the answer the retry gets).
              expect(await listContents(server, ns.forget)).toEqual([]);
              // The forget committed with its answer, then the process died: the retry is answered what
              // was done, and nothing is done again.
              const retried = await retry(forget);
              expect(retried.status).toBe(200);
              expect(retried.replayed).toBe("true");
              expect(retried.body.data.deleted).toBe(3);
              await crashes(server, call(server, "DELETE", `/namespaces/${ns.deleted}`));
            },
          },
          {
            async run(server: RunningServer) {
              at(server);
              expect(await listContents(server, ns.deleted)).toHaveLength(3);
              expect((await call(server, "DELETE", `/namespaces/${ns.deleted}`)).status).toBe(200);
            },
          },
        ]
      : [
          {
            async run(server: RunningServer) {
              at(server);
              await until(async () => (await listContents(server, ns.import)).length === 0, "the import is gone");
              const imported = await call(server, "POST", `/namespaces/${ns.import}/import`, importBody());
              expect(imported.status).toBe(201);
            },
          },
        ]),
  ];
  await runSteps(deployment, steps);

  // Row by row, with no server running.
  await deployment.inspect(async (query) => {
    await assertConsistent(query);
    expect(await contentsIn(query, ns.batch)).toEqual([...batch].sort());
    expect(await contentsIn(query, ns.keyless)).toEqual([]);
    await assertConversation(query, ns.conversation, "talk", [...earlierTurns, ...conversation]);
    const imported = await query<{ content: string; session_id: string | null; position: number | null }>(
      `SELECT content, session_id, session_position AS position FROM memories WHERE namespace_id = $1`,
      [ns.import],
    );
    expect(imported).toHaveLength(BATCH);
    expect(new Set(imported.map((row) => row.content)).size).toBe(BATCH);
    const positions = imported.flatMap((row) => (row.session_id ? [row.position] : [])).sort((a, b) => a! - b!);
    expect(positions).toEqual(Array.from({ length: BATCH / 2 }, (_, i) => i));
    if (!all) return;
    expect(await contentsIn(query, ns.single)).toEqual(["The only fact."]);
    const [patched] = await query<{ content: string; version: number; versions: number }>(
      `SELECT content, version, (SELECT count(*)::int FROM memory_versions v WHERE v.memory_id = m.id) AS versions
       FROM memories m WHERE id = $1`,
      [ns.patchedMemory],
    );
    expect(patched).toEqual({ content: "Changed words.", version: 2, versions: 1 });
    expect(await contentsIn(query, ns.forget)).toEqual([]);
    const receipts = await query<{ kind: string; memories: number }>(
      `SELECT kind, memories_deleted AS memories FROM erasures WHERE namespace_id = ANY($1::text[]) ORDER BY kind`,
      [[ns.forget, ns.deleted]],
    );
    expect(receipts.map((receipt) => ({ ...receipt, memories: Number(receipt.memories) }))).toEqual([
      { kind: "forget", memories: 3 },
      { kind: "namespace.delete", memories: 3 },
    ]);
    expect(await query(`SELECT id FROM namespaces WHERE id = $1`, [ns.deleted])).toEqual([]);
  });
}

/**
 * A document's processing (a durable job) killed in the middle of writing its passages: after the restart the
 * job runs again, the half-written passages are gone and the document is ready with exactly one copy of each.
 */
async function crashDocumentProcessing(deployment: Deployment) {
  const port = await freePort();
  const sections = Array.from(
    { length: 80 },
    (_, i) => `## Bay ${i}\n\nShelf ${i} of bay ${i} holds the spare parts for conveyor ${i % 9}.`,
  );
  const markdown = `# Warehouse guide\n\n${sections.join("\n\n")}\n`;
  const crashing = await start(deployment, port, "remember.group.2");
  const ns = await createNamespace(crashing, "documents");
  const added = await call(crashing, "POST", "/documents", {
    namespace_id: ns,
    content_type: "text/markdown",
    content: markdown,
  });
  expect(added.status).toBe(202);
  const documentId = added.body.data.id as string;
  // The job worker takes it at once and the server dies after two of its three groups of passages.
  expect(await crashing.exited).not.toBe(0);
  expect(crashing.output()).toContain("MEMGW_TEST_CRASH_AT=");
  if (deployment.postgres) {
    const [partial] = await deployment.inspect((query) =>
      query<{ n: number }>(`SELECT count(*)::int AS n FROM memories WHERE document_id = $1`, [documentId]),
    );
    expect(partial.n).toBe(64);
  }

  const server = await start(deployment, port);
  await until(async () => {
    const document = await call(server, "GET", `/documents/${documentId}`);
    return document.body.data.status === "ready";
  }, "the document is processed again");
  const document = await call(server, "GET", `/documents/${documentId}`);
  expect(document.body.data).toMatchObject({ status: "ready", chunk_count: 80, error: null });
  const recall = await call(server, "POST", "/recall", { namespace_id: ns, query: "spare parts of bay 57", top_k: 3 });
  expect(recall.body.data[0].document).toMatchObject({ id: documentId, section: "Warehouse guide > Bay 57" });
  // On PostgreSQL the dead process's write intent is swept once its lease ends (on the embedded database, at start).
  if (deployment.postgres) {
    await until(async () => {
      const [left] = await deployment.inspect((query) =>
        query<{ n: number }>(`SELECT count(*)::int AS n FROM write_intents`),
      );
      return left.n === 0;
    }, "the abandoned write intent is rolled back");
  }
  await server.stop();
  await deployment.inspect(async (query) => {
    const rows = await query<{ content: string }>(`SELECT content FROM memories WHERE document_id = $1`, [documentId]);
    expect(rows).toHaveLength(80);
    expect(new Set(rows.map((row) => row.content)).size).toBe(80);
    expect(await query(`SELECT id FROM jobs WHERE key = $1`, [`document:${documentId}`])).toEqual([]);
    await assertConsistent(query);
  });
}

// The run on PostgreSQL (`npm run test:postgres`) leaves the embedded database to the embedded run.
test.runIf(process.platform === "linux" && !onPostgres())(
  "embedded database: every write kind killed mid-way leaves nothing, and its retry does it once",
  async () => {
    await crashEveryWrite(embeddedDeployment(), { all: true });
  },
  600_000,
);

postgresTest(
  "PostgreSQL: a batch, a conversation, a keyless batch and an import killed mid-way, rolled back or retried once",
  async () => {
    await crashEveryWrite(await postgresDeployment(), { all: false });
  },
  600_000,
);

test.runIf(process.platform === "linux" && !onPostgres())(
  "embedded database: a document's processing killed mid-way is resumed after the restart, one copy of each passage",
  async () => {
    await crashDocumentProcessing(embeddedDeployment());
  },
  600_000,
);

postgresTest(
  "PostgreSQL: a document's processing killed mid-way is resumed after the restart, one copy of each passage",
  async () => {
    await crashDocumentProcessing(await postgresDeployment());
  },
  600_000,
);
