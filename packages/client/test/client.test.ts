// The TypeScript SDK against a real server (`npm start`, the production build, over HTTP): every method, the
// typed errors, retries (through a proxy that fails chosen requests), pagination and cursors, streaming
// export and import, timeouts and aborts.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  MemoryGateway,
  MemoryGatewayError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type ExportLine,
} from "@memory-gateway/client";
import { memgw } from "../../../tests/helpers/cli";
import { startHeadlessServer, thrown, uniqueName } from "../../../tests/helpers/headless-server";
import type { RunningServer } from "../../../tests/helpers/server";
import { startFaultProxy, type FaultProxy } from "./fault-proxy";

const RATE_LIMIT = 1000;
let server: RunningServer;
let apiKey: string;
let dir: string;
let proxy: FaultProxy;
let mg: MemoryGateway;
let orgId: string;
let pages: http.Server;
let pagesServed = 0;

beforeAll(async () => {
  ({
    server,
    apiKey,
    dataDir: dir,
  } = await startHeadlessServer("SDK", {
    API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    // The document fetched from a URL is served by this test, on loopback.
    ALLOW_PRIVATE_OUTBOUND: "true",
  }));
  pages = http.createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/markdown" });
    response.end(`# Page\n\nServed ${++pagesServed} times; Pierre Curie shared the prize.`);
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  proxy = await startFaultProxy(server.base);
  mg = new MemoryGateway({ apiKey, baseUrl: server.base });
  orgId = (await mg.namespaces.create({ name: "first" })).org_id;
}, 600_000);

afterAll(async () => {
  await proxy?.close();
  pages?.close();
  await server?.stop();
});

/** A key made with the admin command line while the server runs. */
async function newKey(permissions: string, grant?: string): Promise<string> {
  const args = ["key", "create", "--org", orgId, "--name", `sdk ${permissions}`, "--permissions", permissions];
  const made = await memgw(grant ? [...args, "--grant", grant] : args, { DATA_DIR: dir });
  expect(made.code, made.stderr).toBe(0);
  return made.json.secret;
}

const newNamespace = (prefix = "ns") => mg.namespaces.create({ name: uniqueName(prefix) });

describe("every method", () => {
  test("namespaces: create, get, update, list, grants, delete", async () => {
    const created = await mg.namespaces.create({ name: uniqueName("crud"), description: "first" });
    expect(created).toMatchObject({ org_id: orgId, description: "first" });
    expect(await mg.namespaces.get(created.id)).toEqual(created);
    const updated = await mg.namespaces.update(created.id, { description: "second" });
    expect(updated.description).toBe("second");
    const page = await mg.namespaces.list({ page_size: 100 });
    expect(page.data.map((ns) => ns.id)).toContain(created.id);
    expect(page.pagination).toMatchObject({ page: 1, pageSize: 100 });

    const readerKey = await newKey("NAMESPACE_READ");
    const reader = new MemoryGateway({ apiKey: readerKey, baseUrl: server.base });
    expect(await thrown(() => reader.namespaces.get(created.id))).toBeInstanceOf(NotFoundError);
    const keys = await memgw(
      ["key", "create", "--org", orgId, "--name", "grant me", "--permissions", "NAMESPACE_READ"],
      {
        DATA_DIR: dir,
      },
    );
    const grant = await mg.namespaces.grants.create(created.id, { api_key_id: keys.json.id });
    expect(grant).toMatchObject({ namespace_id: created.id, api_key_id: keys.json.id });
    expect((await mg.namespaces.grants.list(created.id)).map((g) => g.id)).toContain(grant.id);
    const granted = new MemoryGateway({ apiKey: keys.json.secret, baseUrl: server.base });
    expect((await granted.namespaces.get(created.id)).id).toBe(created.id);
    await mg.namespaces.grants.delete(created.id, grant.id);
    expect((await mg.namespaces.grants.list(created.id)).map((g) => g.id)).not.toContain(grant.id);
    expect(await thrown(() => granted.namespaces.get(created.id))).toBeInstanceOf(NotFoundError);

    await mg.namespaces.delete(created.id);
    expect(await thrown(() => mg.namespaces.get(created.id))).toBeInstanceOf(NotFoundError);
  });

  test("remember (one, a batch, a conversation), recall, ask, memories, history, forget", async () => {
    const ns = await newNamespace("memory");
    const one = await mg.remember({ namespace_id: ns.id, content: "Ada prefers jasmine tea.", identity_id: "ada" });
    expect(one).toMatchObject({ namespace_id: ns.id, content: "Ada prefers jasmine tea.", version: 1 });
    const batch = await mg.remember({
      namespace_id: ns.id,
      memories: [
        { content: "Grace flies to Lisbon on Friday." },
        { content: "The office wifi password is rotated monthly." },
      ],
    });
    expect(batch.map((memory) => memory.content)).toEqual([
      "Grace flies to Lisbon on Friday.",
      "The office wifi password is rotated monthly.",
    ]);
    const turns = await mg.remember({
      namespace_id: ns.id,
      session_id: "chat-1",
      messages: [
        { role: "user", content: "My dog is called Pixel." },
        { role: "assistant", content: "Pixel is a lovely name." },
      ],
    });
    expect(turns.map((turn) => [turn.session_id, turn.position, turn.role])).toEqual([
      ["chat-1", 0, "user"],
      ["chat-1", 1, "assistant"],
    ]);

    const matches = await mg.recall({ namespace_id: ns.id, query: "what tea does Ada like?" });
    expect(matches[0]).toMatchObject({ memory_id: one.id, content: "Ada prefers jasmine tea." });
    const answer = await mg.ask({ namespace_id: ns.id, query: "What is the dog called?" });
    expect(answer.answer).toContain("Pixel");
    expect(answer.sources.map((source) => source.memory_id)).toContain(turns[0].id);

    expect(await mg.memories.get(one.id)).toMatchObject({ id: one.id, identity_id: "ada" });
    const edited = await mg.memories.update(one.id, { content: "Ada prefers oolong tea." });
    expect(edited).toMatchObject({ version: 2, content: "Ada prefers oolong tea." });
    const history = await mg.memories.history(one.id);
    expect(history.data.map((version) => [version.version, version.content])).toEqual([
      [2, "Ada prefers oolong tea."],
      [1, "Ada prefers jasmine tea."],
    ]);
    const listed = await mg.memories.list({ namespace_id: ns.id, identity_id: "ada" });
    expect(listed.data.map((memory) => memory.id)).toEqual([one.id]);

    const forgotten = await mg.forget({ namespace_id: ns.id, memory_ids: [one.id] });
    expect(forgotten).toMatchObject({ deleted: 1, memory_ids: [one.id] });
    expect(await thrown(() => mg.memories.get(one.id))).toBeInstanceOf(NotFoundError);
  });

  test("documents: create, upload, list, get, text, content, refresh, delete; entities; events", async () => {
    const ns = await newNamespace("docs");
    const text = "# Handbook\n\nMarie Curie founded the radium institute in Paris in 1914.";
    const created = await mg.documents.create({
      namespace_id: ns.id,
      content: text,
      content_type: "text/markdown",
      title: "Handbook",
    });
    expect(created).toMatchObject({ namespace_id: ns.id, title: "Handbook" });
    const uploaded = await mg.documents.upload({
      namespace_id: ns.id,
      file: new Blob(["Plain notes about the garden."], { type: "text/plain" }),
      filename: "notes.txt",
    });
    expect(uploaded).toMatchObject({ filename: "notes.txt" });
    await expect.poll(async () => (await mg.documents.get(created.id)).status, { timeout: 60_000 }).toBe("ready");
    await expect.poll(async () => (await mg.documents.get(uploaded.id)).status, { timeout: 60_000 }).toBe("ready");
    const listed = await mg.documents.list({ namespace_id: ns.id });
    expect(listed.data.map((document) => document.id).sort()).toEqual([created.id, uploaded.id].sort());
    expect(JSON.stringify(await mg.documents.text(created.id))).toContain("radium institute");
    expect(await (await mg.documents.content(uploaded.id)).text()).toBe("Plain notes about the garden.");
    const fetched = await mg.documents.create({
      namespace_id: ns.id,
      url: `http://127.0.0.1:${(pages.address() as net.AddressInfo).port}/page.md`,
    });
    await expect.poll(async () => (await mg.documents.get(fetched.id)).status, { timeout: 60_000 }).toBe("ready");
    expect(await mg.documents.refresh(fetched.id)).toMatchObject({ id: fetched.id });
    await expect.poll(() => pagesServed, { timeout: 60_000 }).toBe(2);

    const entities = await mg.entities.list({ namespace_id: ns.id, q: "Marie" });
    const curie = entities.data.find((entity) => entity.name.includes("Curie"));
    expect(curie).toBeDefined();
    expect((await mg.entities.get(curie!.id)).id).toBe(curie!.id);
    const iterated = [];
    for await (const entity of mg.entities.iterate({ namespace_id: ns.id })) iterated.push(entity.id);
    expect(iterated).toContain(curie!.id);

    const all = [];
    for await (const document of mg.documents.iterate({ namespace_id: ns.id, page_size: 1 })) all.push(document.id);
    expect(all.sort()).toEqual([created.id, uploaded.id, fetched.id].sort());
    await mg.documents.delete(uploaded.id);
    expect(await thrown(() => mg.documents.get(uploaded.id))).toBeInstanceOf(NotFoundError);

    const feed = await mg.events.list({ namespace_id: ns.id, limit: 2 });
    expect(feed.events).toHaveLength(2);
    const events = [];
    for await (const event of mg.events.iterate({ namespace_id: ns.id, limit: 2 })) events.push(event);
    expect(events.slice(0, 2)).toEqual(feed.events);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events[0].type).toBe("namespace.created");
    // The passages of the deleted upload were memories: their deletion is the feed's last news.
    expect(events.at(-1)?.type).toBe("memory.deleted");
  });
});

test("the README's TypeScript walk-through runs as written: packed into a folder of its own, run by node", async () => {
  const readme = fs.readFileSync("README.md", "utf8");
  const setup = /<!-- walkthrough-ts-setup[^>]*-->\s*```bash\n([\s\S]*?)```/.exec(readme)![1];
  const block = /<!-- walkthrough-ts:[^>]*-->\s*```ts\n([\s\S]*?)```/.exec(readme)![1];
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-try-"));
  try {
    // The setup commands as the README gives them, from the checkout, with the test's folder for ../memgw-try.
    await run("bash", ["-euo", "pipefail", "-c", setup.replaceAll("../memgw-try", folder)]);
    // The tarball went to the folder, not into the checkout.
    const tarballs = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith(".tgz"));
    expect(tarballs(folder)).toEqual(["memory-gateway-client-0.1.0.tgz"]);
    expect([...tarballs("."), ...tarballs("packages/client")]).toEqual([]);
    fs.writeFileSync(path.join(folder, "walkthrough.mjs"), block.replace("http://localhost:3000", server.base));
    const printed = (await run(process.execPath, ["walkthrough.mjs"], { cwd: folder, env: { MEMGW_API_KEY: apiKey } }))
      .trim()
      .split("\n");
    expect(printed).toHaveLength(2);
    expect(printed[0]).toMatch(/^I adopted a golden retriever named Max last spring\. 0\.\d+$/);
    expect(printed[1]).toMatch(/Max.* [1-9]\d*$/);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

/** Runs a program to its end: its standard output, or an error with its standard error. */
function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return new Promise<string>((resolve, reject) =>
    execFile(file, args, { cwd: options.cwd, env: { ...process.env, ...options.env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(" ")}: ${stderr}`)) : resolve(stdout),
    ),
  );
}

// Bun and Deno, as .ci/run installs them from the npm registry (@oven/bun-linux-x64, @deno/linux-x64-glibc).
const RUNTIMES = { bun: process.env.MEMGW_TEST_BUN, deno: process.env.MEMGW_TEST_DENO };
const missingRuntimes = Object.entries(RUNTIMES)
  .filter(([, binary]) => !binary)
  .map(([name]) => `MEMGW_TEST_${name.toUpperCase()}`);
if (missingRuntimes.length && process.env.CI !== "true") {
  const which = missingRuntimes.join(" and ");
  console.warn(`[memgw tests] the SDK's Bun and Deno runs are skipped: set ${which} to their binaries.`);
}

describe.skipIf(missingRuntimes.length > 0 && process.env.CI !== "true")("other runtimes", () => {
  test.each(["bun", "deno"] as const)(
    "the SDK's source runs unchanged on %s: remember, recall, export, errors",
    async (name) => {
      const binary = RUNTIMES[name];
      expect(binary, `MEMGW_TEST_${name.toUpperCase()}`).toBeTruthy();
      const ns = await newNamespace(name);
      const script = "packages/client/test/runtime-smoke.ts";
      const args = name === "deno" ? ["run", "--allow-net", "--allow-env", "--no-config", script] : [script];
      const env = { ...process.env, MEMGW_BASE_URL: server.base, MEMGW_API_KEY: apiKey, MEMGW_NAMESPACE_ID: ns.id };
      const output = await new Promise<string>((resolve, reject) =>
        execFile(binary!, args, { env }, (error, stdout, stderr) =>
          error ? reject(new Error(stderr)) : resolve(stdout),
        ),
      );
      expect(JSON.parse(output)).toEqual({ stored: true, lines: ["header", "memory"], missing: true });
    },
  );
});

describe("typed errors", () => {
  test("400, 401, 403, 404, 409, 413 and 429 each throw their class, with code, details and request id", async () => {
    const ns = await newNamespace("errors");
    const bad = await thrown(() => mg.recall({ namespace_id: ns.id, query: "x", top_k: 1000 }));
    expect(bad).toBeInstanceOf(BadRequestError);
    expect(bad).toMatchObject({ status: 400, code: "BAD_REQUEST", details: [{ field: "body.top_k" }] });
    expect((bad as MemoryGatewayError).requestId).toMatch(/\S{8,}/);

    const anonymous = new MemoryGateway({ apiKey: "mgw_notARealKeyAtAll0123456789", baseUrl: server.base });
    expect(await thrown(() => anonymous.namespaces.list())).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect(await thrown(() => anonymous.namespaces.list())).toBeInstanceOf(AuthenticationError);

    const reader = new MemoryGateway({ apiKey: await newKey("NAMESPACE_READ", ns.id), baseUrl: server.base });
    const refused = await thrown(() => reader.remember({ namespace_id: ns.id, content: "not allowed" }));
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect(refused).toMatchObject({ status: 403, code: "FORBIDDEN" });

    const missing = await thrown(() => mg.memories.get("mem_doesNotExist"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "NOT_FOUND" });

    const conflict = await thrown(() => mg.namespaces.create({ name: ns.name }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: "CONFLICT" });

    const tooLarge = await thrown(() => mg.remember({ namespace_id: ns.id, content: "x".repeat(6 * 1024 * 1024) }));
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(tooLarge).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" });

    // A key of its own, its minute used up: the server's 429, not retried when asked not to.
    const busy = new MemoryGateway({ apiKey: await newKey("NAMESPACE_READ"), baseUrl: server.base, maxRetries: 0 });
    let limited: unknown;
    // The limit counts per minute window: requests that straddle a window's end can take two windows to
    // use up, so up to twice the limit is sent.
    for (let sent = 0; sent <= 2 * RATE_LIMIT && !limited; sent += 50) {
      const answers = await Promise.allSettled(
        Array.from({ length: 50 }, () => busy.namespaces.list({ page_size: 1 })),
      );
      limited = answers.find((answer) => answer.status === "rejected")?.reason;
    }
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect((limited as RateLimitError).retryAfter).toBeGreaterThan(0);
  });

  test("a 429 asking for longer than maxRetryAfterSeconds is thrown at once", async () => {
    const client = new MemoryGateway({ apiKey, baseUrl: proxy.url, maxRetryAfterSeconds: 5 });
    proxy.fail("GET", "/api/v1/namespaces", { kind: "answer", status: 429, headers: { "retry-after": "30" } });
    const started = Date.now();
    const error = await thrown(() => client.namespaces.list());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(30);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("retries", () => {
  const viaProxy = () => new MemoryGateway({ apiKey, baseUrl: proxy.url });
  const seenOf = (path: string) => proxy.seen.filter((request) => request.path.startsWith(path));

  test("a 503 is retried after a backoff, and the call succeeds", async () => {
    const ns = await newNamespace("retry-503");
    const before = seenOf("/api/v1/recall").length;
    proxy.fail("POST", "/api/v1/recall", { kind: "answer", status: 503 });
    expect(await viaProxy().recall({ namespace_id: ns.id, query: "anything" })).toEqual([]);
    expect(seenOf("/api/v1/recall").length - before).toBe(2);
  });

  test("a 429 with Retry-After is retried once that time has passed", async () => {
    const path = "/api/v1/namespaces?page_size=3";
    proxy.fail("GET", path, { kind: "answer", status: 429, headers: { "retry-after": "1" } });
    const page = await viaProxy().namespaces.list({ page_size: 3 });
    expect(page.data.length).toBeGreaterThan(0);
    const [refused, retried] = seenOf(path).slice(-2);
    expect(retried.at - refused.at).toBeGreaterThanOrEqual(1000);
  });

  test("a write whose answer was lost is retried with the same Idempotency-Key: one memory is stored", async () => {
    const ns = await newNamespace("retry-write");
    proxy.fail("POST", "/api/v1/remember", { kind: "forward-then-answer", status: 503 });
    const memory = await viaProxy().remember({ namespace_id: ns.id, content: "Stored exactly once." });
    const attempts = seenOf("/api/v1/remember").slice(-2);
    expect(attempts[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(attempts[1].idempotencyKey).toBe(attempts[0].idempotencyKey);
    const stored = await mg.memories.list({ namespace_id: ns.id });
    expect(stored.data.map((m) => m.id)).toEqual([memory.id]);
  });

  test("a write that takes no Idempotency-Key is not retried after a 503; a 500 is never retried", async () => {
    const ns = await newNamespace("no-retry");
    const before = seenOf(`/api/v1/namespaces/${ns.id}/grants`).length;
    proxy.fail("POST", `/api/v1/namespaces/${ns.id}/grants`, { kind: "answer", status: 503 });
    expect(await thrown(() => viaProxy().namespaces.grants.create(ns.id, { api_key_id: "key_x" }))).toBeInstanceOf(
      ServerError,
    );
    expect(seenOf(`/api/v1/namespaces/${ns.id}/grants`).length - before).toBe(1);
    proxy.fail("POST", "/api/v1/recall", { kind: "answer", status: 500 });
    const beforeRecall = seenOf("/api/v1/recall").length;
    const error = await thrown(() => viaProxy().recall({ namespace_id: ns.id, query: "q" }));
    expect(error).toMatchObject({ status: 500 });
    expect(seenOf("/api/v1/recall").length - beforeRecall).toBe(1);
  });

  test("an attempt without an answer times out, and the caller's signal aborts the call", async () => {
    const ns = await newNamespace("timeout");
    proxy.fail("POST", "/api/v1/recall", { kind: "hang" });
    const client = new MemoryGateway({ apiKey, baseUrl: proxy.url, timeoutMs: 300, maxRetries: 0 });
    expect(await thrown(() => client.recall({ namespace_id: ns.id, query: "q" }))).toBeInstanceOf(TimeoutError);
    proxy.fail("POST", "/api/v1/recall", { kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the user left")), 100);
    const aborted = await thrown(() =>
      viaProxy().recall({ namespace_id: ns.id, query: "q" }, { signal: controller.signal }),
    );
    expect(aborted).toEqual(new Error("the user left"));
  });
});

describe("pages, cursors and streams", () => {
  test("iterate walks 250 namespaces, page by page, each once", async () => {
    const key = await newKey("NAMESPACE_READ,NAMESPACE_MANAGE");
    const client = new MemoryGateway({ apiKey: key, baseUrl: server.base });
    // A key made by the command line sees the namespaces of the organization: count what is there already.
    const before = new Set<string>();
    for await (const ns of client.namespaces.iterate()) before.add(ns.id);
    const made = [];
    for (let i = 0; i < 250; i += 25) {
      made.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, (_, j) => client.namespaces.create({ name: uniqueName(`p${i + j}`) })),
        )),
      );
    }
    const seen: string[] = [];
    for await (const ns of client.namespaces.iterate({ page_size: 40 })) seen.push(ns.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => !before.has(id)).sort()).toEqual(made.map((ns) => ns.id).sort());
  });

  test("iterate follows the cursor over 1,000 memories, newest first, each once", async () => {
    const ns = await newNamespace("cursor");
    for (let batch = 0; batch < 10; batch++) {
      await mg.remember({
        namespace_id: ns.id,
        memories: Array.from({ length: 100 }, (_, i) => ({ content: `Fact number ${batch * 100 + i}.` })),
      });
    }
    const ids: string[] = [];
    for await (const memory of mg.memories.iterate({ namespace_id: ns.id, page_size: 100 })) ids.push(memory.id);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
  });

  test("an export streams into an import: the same memories, with their history, in another namespace", async () => {
    const source = await newNamespace("export");
    const stored = await mg.remember({
      namespace_id: source.id,
      memories: Array.from({ length: 30 }, (_, i) => ({ content: `Line ${i}.`, metadata: { i } })),
    });
    await mg.memories.update(stored[0].id, { content: "Line 0, edited." });
    const target = await newNamespace("import");
    const result = await mg.namespaces.import(target.id, mg.namespaces.export(source.id));
    expect(result).toMatchObject({ imported: 30 });

    const lines: ExportLine[] = [];
    for await (const line of mg.namespaces.export(target.id)) lines.push(line);
    expect(lines[0]).toMatchObject({ type: "header", format: "memory-gateway-export" });
    const memories = lines.filter((line) => line.type === "memory");
    expect(memories.map((line) => line.content).sort()).toEqual(
      ["Line 0, edited.", ...Array.from({ length: 29 }, (_, i) => `Line ${i + 1}.`)].sort(),
    );
    const edited = memories.find((line) => line.content === "Line 0, edited.");
    expect(edited?.history.map((version) => version.content)).toEqual(["Line 0, edited.", "Line 0."]);
  });

  test("import takes plain values from elsewhere, and an array is sent again after a 429", async () => {
    const target = await newNamespace("plain-import");
    const path = `/api/v1/namespaces/${target.id}/import`;
    proxy.fail("POST", path, { kind: "answer", status: 429, headers: { "retry-after": "1" } });
    const client = new MemoryGateway({ apiKey, baseUrl: proxy.url });
    const result = await client.namespaces.import(target.id, [{ content: "From a script." }, { content: "Another." }]);
    expect(result).toMatchObject({ imported: 2 });
    expect(proxy.seen.filter((request) => request.path === path)).toHaveLength(2);
    const stored = await mg.memories.list({ namespace_id: target.id });
    expect(stored.data.map((memory) => memory.content).sort()).toEqual(["Another.", "From a script."]);
  });
});
