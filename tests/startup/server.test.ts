// The production build served by `npm start`, driven over real HTTP.
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { memgw } from "../helpers/cli";
import { freePort, startServer, type RunningServer } from "../helpers/server";
import { onPostgres } from "../helpers/postgres";
import { newDataDir } from "../helpers/embedded-template";
import { component } from "../helpers/openapi";

// Its own build directory (shared with tests/startup/process.test.ts; builds take turns), never a developer's .next.
process.env.MEMGW_DIST_DIR = ".next-test-server";
const dir = newDataDir("memgw-server-");
const INIT = {
  MEMGW_INIT_ORG_NAME: "Headless Inc",
  MEMGW_INIT_USER_EMAIL: "ops@headless.example",
  MEMGW_INIT_USER_PASSWORD: "a long operator password",
  MEMGW_INIT_API_KEY: "mgw_headlessBootstrapKey0123456789abcdef",
};
const FULL_ACCESS = "NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE,INTEGRATION_MANAGE";
let server: RunningServer;
let port: number;

async function call(method: string, urlPath: string, { key, body }: { key?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.base}/api/v1${urlPath}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  port = await freePort();
  server = await startServer({ DATA_DIR: dir, PORT: String(port), ...INIT });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Every start of a production server takes seconds (more on a busy machine).
describe("npm start", { timeout: 300_000 }, () => {
  test("prints where it serves and runs the headless first start", () => {
    expect(server.output()).toContain(`Memory Gateway is ready at ${server.base}`);
    expect(server.output()).toContain("Headless start: organization, owner and API key created");
  });

  test("the MEMGW_INIT_API_KEY is a working full-permission key", async () => {
    const created = await call("POST", "/namespaces", {
      key: INIT.MEMGW_INIT_API_KEY,
      body: { name: "from-headless" },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.mcp_endpoint_url).toBe(`${server.base}/api/v1/mcp/${created.body.data.id}`);
    expect((await call("GET", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY })).body.pagination.total).toBe(1);
  });

  test("a namespace's mcp_endpoint_url serves MCP to the SDK's client over HTTP", async () => {
    const key = INIT.MEMGW_INIT_API_KEY;
    const ns = (await call("POST", "/namespaces", { key, body: { name: "mcp-over-http" } })).body.data;
    const client = new Client({ name: "memgw-server-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(ns.mcp_endpoint_url), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
        "add_document",
        "ask",
        "forget",
        "get_profile",
        "list_entities",
        "recall",
        "recall_by_entity",
        "remember",
      ]);
      await client.callTool({ name: "remember", arguments: { content: "The standup moved to 9:30." } });
      const recalled = await call("POST", "/recall", {
        key,
        body: { namespace_id: ns.id, query: "When is the standup?" },
      });
      expect(recalled.body.data[0].content).toBe("The standup moved to 9:30.");
    } finally {
      await client.close();
    }
  });

  test("serves the console page", async () => {
    const response = await fetch(server.base);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Memory for your AI applications");
  });

  test("a page URL with malformed percent-encoding is a 400, not a 500", async () => {
    for (const path of ["/%E0%A4%A", "/acme/identities/%ZZ", "/acme/namespaces/%"]) {
      const response = await fetch(`${server.base}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.text(), path).toContain("malformed percent-encoding");
    }
  });

  test("the README walk-through works as written", async () => {
    const readme = fs.readFileSync("README.md", "utf8");
    const block = /<!-- walkthrough:[^>]*-->\s*```bash\n([\s\S]*?)```/.exec(readme)![1];
    const script = block.replaceAll("http://localhost:3000", server.base);
    // The key the reader generates in the console (Full access): every permission, no namespace granted yet.
    const key = await memgw(
      ["key", "create", "--org", "headless-inc", "--name", "walk-through", "--permissions", FULL_ACCESS],
      { DATA_DIR: dir },
    );
    expect(key.code, key.stderr).toBe(0);
    const { stdout } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      env: { ...process.env, MEMGW_API_KEY: key.json.secret },
    });
    const [created, listed, remembered, recalled, asked] = stdout
      .trim()
      .split("\n")
      .filter((line) => line.startsWith('{"success"'))
      .map((line) => JSON.parse(line));
    expect(created).toMatchObject({ success: true, data: { name: "support-bot", external_reference_id: "crm-42" } });
    expect(listed.data.map((ns: { id: string }) => ns.id)).toEqual([created.data.id]);
    expect(listed.pagination).toEqual({ page: 1, pageSize: 20, total: 1, totalPages: 1 });
    expect(remembered).toMatchObject({
      success: true,
      data: { namespace_id: created.data.id, identity_id: "user-7", chunk_count: 1 },
    });
    expect(recalled.data[0]).toMatchObject({
      memory_id: remembered.data.id,
      content: "I adopted a golden retriever named Max last spring.",
    });
    expect(asked.data).toMatchObject({
      answer: "I adopted a golden retriever named Max last spring [1].",
      sources: [{ index: 1, memory_id: remembered.data.id }],
      model: "extractive",
    });
  });

  test("every error is in the envelope: 401, 404 for an unknown path, 405 for a wrong method", async () => {
    expect(await call("GET", "/namespaces")).toMatchObject({
      status: 401,
      body: { success: false, error: { code: "UNAUTHORIZED" } },
    });
    expect(await call("GET", "/no-such-thing", { key: INIT.MEMGW_INIT_API_KEY })).toMatchObject({
      status: 404,
      body: { error: { code: "NOT_FOUND" } },
    });
    const wrong = await call("PUT", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY });
    expect(wrong).toMatchObject({ status: 405, body: { success: false, error: { code: "METHOD_NOT_ALLOWED" } } });
    expect(wrong.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    const recallByGet = await call("GET", "/recall", { key: INIT.MEMGW_INIT_API_KEY });
    expect(recallByGet).toMatchObject({
      status: 405,
      body: { error: { code: "METHOD_NOT_ALLOWED", message: "GET is not allowed here; use POST." } },
    });
    const options = await fetch(`${server.base}/api/v1/namespaces/ns_x`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "GET, PATCH, DELETE, HEAD, OPTIONS"]);

    // Every answer names its request; an error's body says the same id.
    const notFound = await call("GET", "/no-such-thing", { key: INIT.MEMGW_INIT_API_KEY });
    for (const answer of [notFound, wrong]) {
      expect(answer.headers.get("request-id")).toMatch(/^req_[\w-]{16}$/);
      expect(answer.body.error.request_id).toBe(answer.headers.get("request-id"));
    }
    expect((await call("GET", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY })).headers.get("request-id")).toMatch(
      /^req_/,
    );
    expect(options.headers.get("request-id")).toMatch(/^req_/);
  });

  test("an API path ending in a slash is the same route: no redirect, the same envelope", async () => {
    const key = INIT.MEMGW_INIT_API_KEY;
    const send = async (method: string, urlPath: string, body?: unknown) => {
      const response = await fetch(`${server.base}/api/v1${urlPath}`, {
        method,
        redirect: "manual",
        headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json() };
    };
    const plain = await send("GET", "/namespaces?page=1&page_size=5");
    expect(await send("GET", "/namespaces/?page=1&page_size=5")).toEqual(plain);
    expect(plain.status).toBe(200);
    const documents = await send("GET", "/documents");
    expect((await send("GET", "/documents//")).body.error.code).toBe(documents.body.error.code);
    const ns = (await send("POST", "/namespaces/", { name: `slash-${Date.now()}` })).body.data;
    expect(await send("POST", "/recall/", { namespace_id: ns.id, query: "anything" })).toMatchObject({
      status: 200,
      body: { success: true, data: [] },
    });
    expect(await send("GET", "/no-such-thing/")).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
  });

  test("API responses are never cached and go out uncompressed, errors too", async () => {
    const key = INIT.MEMGW_INIT_API_KEY;
    const namespace = await call("POST", "/namespaces", { key, body: { name: "uncompressed" } });
    const content = "The harbour office opens at seven and closes at noon on Saturdays. ".repeat(40);
    const memory = await call("POST", "/remember", { key, body: { namespace_id: namespace.body.data.id, content } });
    // Large enough (2.7 kB) for the compression Next applies by default to any body over 1 kB.
    const asKey: Record<string, string> = { authorization: `Bearer ${key}` };
    for (const auth of [asKey, {}]) {
      const response = await fetch(
        `${server.base}/api/v1/memories/${memory.body.data.id}?namespace_id=${namespace.body.data.id}`,
        {
          headers: { "accept-encoding": "gzip, deflate", ...auth },
        },
      );
      expect(response.status).toBe("authorization" in auth ? 200 : 401);
      expect(response.headers.get("cache-control")).toBe("no-store, no-transform");
      expect(response.headers.get("content-encoding")).toBeNull();
      if (response.status === 200) expect((await response.json()).data.content).toBe(content);
    }
  });

  test("the memory operations answer without Next's router: the same envelope, whole, with its length", async () => {
    const key = INIT.MEMGW_INIT_API_KEY;
    const namespace = (await call("POST", "/namespaces", { key, body: { name: "direct" } })).body.data.id;
    const content = "The ferry to Vis leaves Split at 09:30 on weekdays.";
    const answers = [
      await fetch(`${server.base}/api/v1/health`),
      ...(await Promise.all(
        [
          ["/remember", { namespace_id: namespace, content }],
          ["/recall?ignored=1", { namespace_id: namespace, query: "When does the ferry leave?" }],
          ["/ask", { namespace_id: namespace, query: "When does the ferry leave?" }],
          ["/forget", { namespace_id: namespace, memory_ids: ["mem_unknown"] }],
          ["/recall", { namespace_id: "ns_of_nobody", query: "ferry" }],
        ].map(([path, body]) =>
          fetch(`${server.base}/api/v1${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          }),
        ),
      )),
    ];
    const statuses = [];
    for (const answer of answers) {
      const bytes = Buffer.from(await answer.arrayBuffer());
      statuses.push(answer.status);
      // Next's router sent these chunked, with a `Vary` naming its own router's headers.
      expect(answer.headers.get("content-length")).toBe(String(bytes.byteLength));
      expect(answer.headers.get("vary")).toBeNull();
      expect(answer.headers.get("request-id")).toMatch(/^req_/);
      expect(JSON.parse(bytes.toString("utf8")).success).toBe(answer.ok);
    }
    expect(statuses).toEqual([200, 201, 200, 200, 200, 404]);
    const recalled = await call("POST", "/recall", { key, body: { namespace_id: namespace, query: "ferry to Vis" } });
    expect(recalled.body.data[0].content).toBe(content);
    // The methods they do not take and OPTIONS, as from every route; a trailing slash is Next's to answer.
    const wrong = await call("DELETE", "/remember", { key });
    expect([wrong.status, wrong.body.error.code, wrong.headers.get("allow")]).toEqual([
      405,
      "METHOD_NOT_ALLOWED",
      "POST, OPTIONS",
    ]);
    const options = await fetch(`${server.base}/api/v1/ask`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "POST, OPTIONS"]);
  });

  test("a body past the limit is answered 413 to a client that sends it all before reading", async () => {
    // As Python's HTTP clients do: the whole request written first, the answer read after. The server must take
    // (and drop) what it did not read, or the client's writes wait until the connection is reset.
    const content = JSON.stringify({ namespace_id: "ns_x", content: "x".repeat(6 * 1024 * 1024) });
    const auth = `Authorization: Bearer ${INIT.MEMGW_INIT_API_KEY}`;
    const head = `POST /api/v1/remember HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}\r\n`;
    const chunked = `${Buffer.byteLength(content).toString(16)}\r\n${content}\r\n0\r\n\r\n`;
    for (const request of [
      `${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(content)}\r\n\r\n${content}`,
      `${head}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`,
    ]) {
      const socket = net.connect(port, "127.0.0.1");
      const errors: Error[] = [];
      let answer = "";
      socket.on("error", (error) => errors.push(error));
      socket.setEncoding("utf8").on("data", (chunk) => (answer += chunk));
      const sent = await new Promise((resolve) => socket.write(request, (error) => resolve(error ?? "sent")));
      expect(sent).toBe("sent");
      await vi.waitFor(() => expect(answer).toMatch(/"request_id":"req_[\w-]+"\}\}$/), { timeout: 10_000 });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
      // The connection was not reset under the client (it was, 5 s later, when the body was left unread).
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(errors).toEqual([]);
      socket.destroy();
    }
    expect((await fetch(`${server.base}/api/v1/health`)).status).toBe(200);
  });

  test("a kept-alive connection idle for 6 s still carries the next request (Node's default closed it)", async () => {
    const socket = net.connect(port, "127.0.0.1");
    const errors: Error[] = [];
    let closed = false;
    let received = "";
    socket.on("error", (error) => errors.push(error)).on("close", () => (closed = true));
    socket.setEncoding("utf8").on("data", (chunk) => (received += chunk));
    const request = "GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n";
    socket.write(request);
    await vi.waitFor(() => expect(received).toMatch(/\}$/), { timeout: 10_000 });
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);
    received = "";
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(closed).toBe(false);
    socket.write(request);
    await vi.waitFor(() => expect(received).toMatch(/\}$/), { timeout: 10_000 });
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(errors).toEqual([]);
    socket.destroy();
  });

  test("a memory whose client goes away halfway through its body is not stored; the server carries on", async () => {
    const key = INIT.MEMGW_INIT_API_KEY;
    const namespace = (await call("POST", "/namespaces", { key, body: { name: "cut-off" } })).body.data.id;
    const body = JSON.stringify({ namespace_id: namespace, content: "Half of this never arrives. ".repeat(60) });
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /api/v1/remember HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 700)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stored = await call("GET", `/memories?namespace_id=${namespace}`, { key });
    expect([stored.status, stored.body.data]).toEqual([200, []]);
    const whole = await call("POST", "/remember", { key, body: JSON.parse(body) });
    expect(whole.status).toBe(201);
  });

  test("GET /openapi.json is an OpenAPI 3.1 document of every endpoint, built from the handlers' schemas", async () => {
    const response = await fetch(`${server.base}/api/v1/openapi.json`);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/ask",
      "/documents",
      "/documents/{id}",
      "/documents/{id}/content",
      "/documents/{id}/refresh",
      "/documents/{id}/text",
      "/entities",
      "/entities/{id}",
      "/erasures",
      "/events",
      "/forget",
      "/health",
      "/identities/{id}/entities",
      "/identities/{id}/profile",
      "/integrations/callback",
      "/integrations/connections",
      "/integrations/connections/{id}",
      "/integrations/connections/{id}/complete",
      "/integrations/connections/{id}/reconnect",
      "/integrations/connections/{id}/sync",
      "/integrations/providers",
      "/mcp/{namespace_id}",
      "/memories",
      "/memories/{id}",
      "/memories/{id}/history",
      "/namespaces",
      "/namespaces/{id}",
      "/namespaces/{id}/export",
      "/namespaces/{id}/grants",
      "/namespaces/{id}/grants/{grantId}",
      "/namespaces/{id}/import",
      "/openapi.json",
      "/recall",
      "/remember",
      "/webhooks",
      "/webhooks/{id}",
      "/webhooks/{id}/deliveries",
      "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
      "/webhooks/{id}/rotate-secret",
      "/webhooks/{id}/test",
    ]);
    // A reference lists operations by summary, grouped by tag in the document's order: short titles, the
    // sentence in the description, the API's own groups first and the 405s of other methods hidden there.
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as object));
    const own = operations.filter((op) => !op.tags.includes("Not allowed"));
    expect(own.find((op) => op.operationId === "remember")).toMatchObject({
      summary: "Remember",
      description: expect.stringMatching(/^Store a memory.*\. Requires the NAMESPACE_WRITE permission\.$/),
    });
    for (const op of own) {
      expect(op.summary, op.operationId).toMatch(/^[A-Z][\w ]{1,34}$/);
      expect(op.description, op.operationId).toMatch(/\.$/);
    }
    const tags = doc.tags.map((tag: { name: string }) => tag.name);
    expect(tags.slice(0, 2)).toEqual(["Memory", "Namespaces"]);
    expect(tags).not.toContain("Not allowed");
    expect(new Set(own.flatMap((op) => op.tags))).toEqual(new Set(tags));
    const refused = operations.filter((op) => op.tags.includes("Not allowed"));
    expect(refused.length).toBeGreaterThan(100);
    expect(refused.every((op) => op["x-scalar-ignore"] === true)).toBe(true);

    const create = doc.paths["/namespaces"].post;
    expect(component(doc, create.requestBody.content["application/json"].schema).properties.name).toMatchObject({
      type: "string",
      minLength: 1,
      maxLength: 255,
    });
    expect(create.responses["201"]).toBeDefined();
    expect(create.responses["409"]).toBeDefined();
    const list = doc.paths["/namespaces"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(["page", "page_size"]);
    const item = component(doc, list.responses["200"].content["application/json"].schema.properties.data.items);
    expect(Object.keys(item.properties)).toEqual(
      expect.arrayContaining([
        "id",
        "org_id",
        "name",
        "mcp_endpoint_url",
        "created_at",
        "updated_at",
        "description",
        "external_reference_id",
      ]),
    );
  });

  test.skipIf(onPostgres())(
    "a second server on the same data directory refuses to start, and the first keeps serving",
    async () => {
      const second = await startServer({ DATA_DIR: dir, PORT: String(await freePort()) }).catch(
        (error: Error) => error,
      );
      expect(second).toBeInstanceOf(Error);
      expect((second as Error).message).toMatch(/data directory .* is in use by process/);
      expect((await call("GET", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY })).status).toBe(200);
    },
  );

  test("the CLI works while the server runs, and its key is live at once", async () => {
    const org = await memgw(["org", "create", "--name", "Live"], { DATA_DIR: dir });
    expect(org.code).toBe(0);
    const key = await memgw(["key", "create", "--org", org.json.id, "--name", "k", "--permissions", "NAMESPACE_READ"], {
      DATA_DIR: dir,
    });
    expect((await call("GET", "/namespaces", { key: key.json.secret })).status).toBe(200);
    await memgw(["key", "revoke", "--id", key.json.id], { DATA_DIR: dir });
    expect((await call("GET", "/namespaces", { key: key.json.secret })).status).toBe(401);
  });

  test("a restart keeps the data, and the headless start changes nothing the second time", async () => {
    const before = await call("GET", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY });
    await server.stop();
    server = await startServer({ DATA_DIR: dir, PORT: String(port), ...INIT });
    expect(server.output()).not.toContain("Headless start");
    expect(server.output()).toContain("migrations applied now: 0");
    const after = await call("GET", "/namespaces", { key: INIT.MEMGW_INIT_API_KEY });
    expect(after.body).toEqual(before.body);
    const orgs = await memgw(["org", "create", "--name", "Headless Inc"], { DATA_DIR: dir });
    expect(orgs.json.slug).toBe("headless-inc-2"); // the headless one exists exactly once
  });
});
