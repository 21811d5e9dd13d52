// Documents through the API: a file (multipart), inline content or a URL becomes memories with their page and
// section, recall and ask cite them ("[1, p. 2]"); the refusals (415 with the supported types, 413, outbound URL
// rules on the URL and on every redirect); and who may touch a document: another organization, a key without
// the namespace, a read-only key and a key with other scopes never see, fetch, refresh or delete it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db";
import { api, routeRequest } from "../helpers/api";
import { addDocument, pdfOf, processDocuments, uploadDocument } from "../helpers/documents";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";

interface DocumentJson {
  id: string;
  status: string;
  title: string | null;
  content_type: string | null;
  pages: number | null;
  chunk_count: number;
  error: string | null;
  scopes: Record<string, string>;
  source_url: string | null;
}

const HANDBOOK = [
  {
    heading: "Welcome",
    paragraphs: ["This handbook describes how Northwind Traders works: offices, tools and the people to ask."],
  },
  {
    heading: "Parental leave",
    paragraphs: [
      "Every employee receives twenty weeks of fully paid parental leave, to be taken within a year of the birth.",
      "Tell your manager eight weeks before the leave starts.",
    ],
  },
  { heading: "Expenses", paragraphs: ["Travel is booked through the Skyward portal and approved by finance."] },
];

async function documentOf(key: string, id: string): Promise<DocumentJson> {
  const response = await api("GET", `/documents/${id}`, { key });
  expect(response.status).toBe(200);
  return response.body.data;
}

async function getContent(key: string, id: string) {
  const response = await routeRequest(
    new Request(`http://gateway.test/api/v1/documents/${id}/content`, { headers: { authorization: `Bearer ${key}` } }),
  );
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("a PDF upload", () => {
  test("becomes passages with pages and sections that recall returns and ask cites by page", async () => {
    const tenant = await createTenant("Docs PDF");
    const ns = await createNamespace(tenant.key);
    const bytes = await pdfOf(HANDBOOK, "Northwind handbook");
    const created = await uploadDocument(
      tenant.key,
      { bytes, name: "handbook.pdf", type: "application/pdf" },
      { namespace_id: ns.id, metadata: JSON.stringify({ source: "hr" }) },
    );
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({
      status: "queued",
      content_type: "application/pdf",
      filename: "handbook.pdf",
    });
    const id = created.body.data.id as string;

    expect(await processDocuments()).toBe(1);
    const document = await documentOf(tenant.key, id);
    expect(document).toMatchObject({ status: "ready", pages: 3, error: null, title: "Northwind handbook" });
    expect(document.chunk_count).toBeGreaterThanOrEqual(3);

    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "How many weeks of parental leave?" },
    });
    expect(recall.status).toBe(200);
    const top = recall.body.data[0];
    expect(top.content).toContain("twenty weeks");
    expect(top.document).toEqual({
      id,
      title: "Northwind handbook",
      source_url: null,
      page: 2,
      section: "Parental leave",
    });
    expect(top.metadata).toMatchObject({ source: "hr", page: 2, document_id: id });

    const ask = await api("POST", "/ask", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "How many weeks of parental leave does an employee get?" },
    });
    expect(ask.status).toBe(200);
    expect(ask.body.data.answer).toMatch(/\[1, p\. 2\]/);
    expect(ask.body.data.sources[0].document).toMatchObject({ id, page: 2 });

    // The extracted text by page, and the original bytes as a download that no browser runs.
    const text = await api("GET", `/documents/${id}/text`, { key: tenant.key });
    expect(text.status).toBe(200);
    expect(text.body.data.blocks.find((b: { page: number }) => b.page === 3).text).toContain("Skyward portal");
    const content = await getContent(tenant.key, id);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("application/pdf");
    expect(content.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(content.bytes).equals(Buffer.from(bytes))).toBe(true);

    const list = await api("GET", `/documents?namespace_id=${ns.id}`, { key: tenant.key });
    expect(list.status).toBe(200);
    expect(list.body.data.map((d: DocumentJson) => d.id)).toEqual([id]);
    expect(list.body.pagination).toMatchObject({ total: 1, page: 1 });

    // Deleted: its passages go with it.
    const deleted = await api("DELETE", `/documents/${id}`, { key: tenant.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ id, deleted: true, memories_deleted: document.chunk_count });
    expect((await api("GET", `/documents/${id}`, { key: tenant.key })).status).toBe(404);
    expect((await getContent(tenant.key, id)).status).toBe(404);
    const after = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "parental leave weeks" },
    });
    expect(after.body.data).toEqual([]);
  });
});

describe("inline content", () => {
  test("Markdown keeps its heading path as each passage's section", async () => {
    const tenant = await createTenant("Docs Markdown");
    const ns = await createNamespace(tenant.key);
    const document = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/markdown",
      content:
        "# Runbook\n\n## Database\n\n### Failover\n\n" +
        "Promote the replica with pg_ctl promote, then repoint PgBouncer.\n\n" +
        "## Deploys\n\nDeploys go out on Tuesdays after the standup.\n",
      title: "Ops runbook",
    });
    await processDocuments();
    expect(await documentOf(tenant.key, document.id)).toMatchObject({
      status: "ready",
      pages: null,
      title: "Ops runbook",
    });
    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "how do I promote the replica" },
    });
    expect(recall.body.data[0].document).toMatchObject({
      title: "Ops runbook",
      page: null,
      section: "Runbook > Database > Failover",
    });
    expect(recall.body.data[0].content).toContain("pg_ctl promote");
  });

  test("base64 content of a binary format, and an Idempotency-Key retry that gets the same document", async () => {
    const tenant = await createTenant("Docs Idempotent");
    const ns = await createNamespace(tenant.key);
    const body = {
      namespace_id: ns.id,
      content_type: "application/pdf",
      content_encoding: "base64",
      content: Buffer.from(await pdfOf(HANDBOOK)).toString("base64"),
    };
    const headers = { "idempotency-key": "upload-handbook-1" };
    const first = await api("POST", "/documents", { key: tenant.key, body, headers });
    const second = await api("POST", "/documents", { key: tenant.key, body, headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const list = await api("GET", `/documents?namespace_id=${ns.id}`, { key: tenant.key });
    expect(list.body.pagination.total).toBe(1);
  });
});

describe("refusals change nothing", () => {
  test("a type it cannot read is 415 with the supported list; too large is 413; malformed input 400", async () => {
    const tenant = await createTenant("Docs Refusals");
    const ns = await createNamespace(tenant.key);
    const zip = Buffer.from("PK\u0003\u0004 not a word document at all, just a zip", "binary");
    const refused = await uploadDocument(
      tenant.key,
      { bytes: zip, name: "archive.zip", type: "application/zip" },
      { namespace_id: ns.id },
    );
    expect(refused.status).toBe(415);
    expect(refused.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    expect(refused.body.error.message).toContain("application/pdf");
    expect(refused.body.error.message).toContain("text/markdown");

    const exe = await api("POST", "/documents", {
      key: tenant.key,
      body: {
        namespace_id: ns.id,
        content_type: "application/x-msdownload",
        content_encoding: "base64",
        content: Buffer.from("MZ\u0000\u0000binary").toString("base64"),
      },
    });
    expect(exe.status).toBe(415);

    process.env.DOCUMENT_MAX_BYTES = "2048";
    try {
      const large = await uploadDocument(
        tenant.key,
        { bytes: Buffer.alloc(4096, "a"), name: "big.txt", type: "text/plain" },
        { namespace_id: ns.id },
      );
      expect(large.status).toBe(413);
      expect(large.body.error.code).toBe("PAYLOAD_TOO_LARGE");
      const inline = await api("POST", "/documents", {
        key: tenant.key,
        body: { namespace_id: ns.id, content_type: "text/plain", content: "b".repeat(3000) },
      });
      expect(inline.status).toBe(413);
    } finally {
      delete process.env.DOCUMENT_MAX_BYTES;
    }

    for (const body of [
      { namespace_id: ns.id },
      { namespace_id: ns.id, content: "text" },
      { namespace_id: ns.id, content: "x", content_type: "text/plain", url: "https://example.com/" },
      { namespace_id: ns.id, content: "%%%", content_type: "application/pdf", content_encoding: "base64" },
      { namespace_id: ns.id, content: "x", content_type: "text/plain", unexpected: 1 },
    ]) {
      const response = await api("POST", "/documents", { key: tenant.key, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const form = await uploadDocument(
      tenant.key,
      { bytes: Buffer.from("hello"), name: "a.txt", type: "text/plain" },
      { namespace_id: ns.id, scopes: "{not json" },
    );
    expect(form.status).toBe(400);
    expect(form.body.error.details[0].field).toBe("body.scopes");

    const list = await api("GET", `/documents?namespace_id=${ns.id}`, { key: tenant.key });
    expect(list.body.pagination.total).toBe(0);
  });
});

describe("URLs", () => {
  let server: http.Server;
  let origin: string;
  const pages: Record<string, (response: http.ServerResponse) => void> = {
    "/article": (response) => {
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(
        "<html><head><title>Release notes</title></head><body><nav>Home Pricing Careers</nav>" +
          "<article><h1>Release notes</h1><h2>Version 4.2</h2><p>Version 4.2 adds offline sync for the mobile app " +
          "and fixes the calendar export that dropped recurring events. Offline sync keeps the last thirty days " +
          "of notes on the phone.</p></article><footer>Copyright Acme</footer></body></html>",
      );
    },
    "/to-metadata": (response) => {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      response.end();
    },
    "/huge": (response) => {
      response.setHeader("content-type", "text/plain");
      response.end("z".repeat(8192));
    },
  };

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const page = pages[request.url ?? ""];
      if (page) return page(response);
      response.statusCode = 404;
      response.end("not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    delete process.env.ALLOW_PRIVATE_OUTBOUND;
    delete process.env.DOCUMENT_MAX_BYTES;
  });

  test("refuses private, loopback, metadata and non-https URLs at once, with the reason", async () => {
    const tenant = await createTenant("Docs SSRF");
    const ns = await createNamespace(tenant.key);
    const cases: [string, RegExp][] = [
      [`${origin}/article`, /https/],
      ["https://127.0.0.1/admin", /127\.0\.0\.1/],
      ["https://10.0.0.8/", /private|loopback/],
      ["https://[::1]/", /::1/],
      ["https://169.254.169.254/latest/meta-data/", /metadata/],
      ["https://[::ffff:169.254.169.254]/", /metadata/],
      ["https://localhost/", /localhost: it names this machine/],
      ["https://user:secret@example.com/", /user name or password/],
      ["file:///etc/passwd", /https/],
      ["not a url", /https URL/],
      ["https://[::zz]/", /absolute URL/],
    ];
    for (const [url, reason] of cases) {
      const response = await api("POST", "/documents", { key: tenant.key, body: { namespace_id: ns.id, url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message, url).toMatch(reason);
    }
    // Even where private addresses are allowed (tests, internal deployments), metadata addresses are not.
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const metadata = await api("POST", "/documents", {
      key: tenant.key,
      body: { namespace_id: ns.id, url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(metadata.status).toBe(400);
    expect((await api("GET", `/documents?namespace_id=${ns.id}`, { key: tenant.key })).body.pagination.total).toBe(0);
  });

  test("fetches a page's article; a redirect to a refused address and an oversized answer fail with why", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    const tenant = await createTenant("Docs URL");
    const ns = await createNamespace(tenant.key);
    const article = await addDocument(tenant.key, { namespace_id: ns.id, url: `${origin}/article` });
    const redirected = await addDocument(tenant.key, { namespace_id: ns.id, url: `${origin}/to-metadata` });
    const missing = await addDocument(tenant.key, { namespace_id: ns.id, url: `${origin}/missing` });
    await processDocuments();

    expect(await documentOf(tenant.key, article.id)).toMatchObject({
      status: "ready",
      content_type: "text/html",
      title: "Release notes",
      source_url: `${origin}/article`,
    });
    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "offline sync mobile app" },
    });
    expect(recall.body.data[0].document).toMatchObject({ id: article.id, source_url: `${origin}/article` });
    expect(recall.body.data[0].content).not.toMatch(/Pricing|Careers|Copyright/);

    const refusedRedirect = await documentOf(tenant.key, redirected.id);
    expect(refusedRedirect.status).toBe("failed");
    expect(refusedRedirect.error).toMatch(/redirected to http:\/\/169\.254\.169\.254.*metadata/);
    expect((await documentOf(tenant.key, missing.id)).error).toMatch(/HTTP 404/);

    process.env.DOCUMENT_MAX_BYTES = "4096";
    const huge = await addDocument(tenant.key, { namespace_id: ns.id, url: `${origin}/huge` });
    await processDocuments();
    expect((await documentOf(tenant.key, huge.id)).error).toMatch(/larger than 4096 bytes/);

    // A refresh fetches again; an uploaded document has nothing to refresh.
    const refresh = await api("POST", `/documents/${article.id}/refresh`, { key: tenant.key });
    expect(refresh.status).toBe(202);
    expect(refresh.body.data.status).toBe("queued");
    await processDocuments();
    const refreshed = await documentOf(tenant.key, article.id);
    expect(refreshed.status).toBe("ready");
    const again = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "offline sync mobile app", top_k: 20 },
    });
    expect(
      again.body.data.filter((m: { document: { id: string } | null }) => m.document?.id === article.id),
    ).toHaveLength(refreshed.chunk_count);
    const uploaded = await addDocument(tenant.key, { namespace_id: ns.id, content_type: "text/plain", content: "hi" });
    expect((await api("POST", `/documents/${uploaded.id}/refresh`, { key: tenant.key })).status).toBe(400);
  });
});

describe("who may touch a document", () => {
  test("other organizations, ungranted and read-only keys, and keys with other scopes", async () => {
    const tenant = await createTenant("Docs Owner");
    const ns = await createNamespace(tenant.key);
    const other = await createTenant("Docs Other");
    const otherNs = await createNamespace(other.key);
    const teamA = await createKey(tenant.org.id, { scopes: { team: "a" }, namespaceIds: [ns.id] });
    const teamB = await createKey(tenant.org.id, { scopes: { team: "b" }, namespaceIds: [ns.id] });
    const readOnly = await createKey(tenant.org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    const ungranted = await createKey(tenant.org.id, { namespaceIds: [] });

    const document = await addDocument(teamA.secret, {
      namespace_id: ns.id,
      content_type: "text/plain",
      content: "Team A's launch date is the ninth of March.",
      identity_id: "user-7",
    });
    expect((await documentOf(tenant.key, document.id)).scopes).toEqual({ team: "a" });
    // A key bound to team a may not file a document under team b.
    const widened = await api("POST", "/documents", {
      key: teamA.secret,
      body: { namespace_id: ns.id, content_type: "text/plain", content: "x", scopes: { team: "b" } },
    });
    expect(widened.status).toBe(403);
    await processDocuments();

    const routes: [string, string][] = [
      ["GET", `/documents/${document.id}`],
      ["GET", `/documents/${document.id}/text`],
      ["GET", `/documents/${document.id}/content`],
      ["POST", `/documents/${document.id}/refresh`],
      ["DELETE", `/documents/${document.id}`],
    ];
    for (const key of [other.key, teamB.secret, ungranted.secret]) {
      for (const [method, path] of routes) {
        const response = await api(method, path, { key });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
    // Lists: another organization's namespace is not found; a key with other scopes sees none of it.
    expect((await api("GET", `/documents?namespace_id=${ns.id}`, { key: other.key })).status).toBe(404);
    expect((await api("GET", `/documents?namespace_id=${ns.id}`, { key: teamB.secret })).body.data).toEqual([]);
    expect((await api("GET", `/documents?namespace_id=${ns.id}`, { key: teamA.secret })).body.data).toHaveLength(1);
    // Nobody writes into another organization's namespace.
    const intoOther = await api("POST", "/documents", {
      key: tenant.key,
      body: { namespace_id: otherNs.id, content_type: "text/plain", content: "x" },
    });
    expect(intoOther.status).toBe(404);
    // A read-only key reads but neither adds, refreshes nor deletes.
    expect((await api("GET", `/documents/${document.id}`, { key: readOnly.secret })).status).toBe(200);
    const readOnlyAdd = await api("POST", "/documents", {
      key: readOnly.secret,
      body: { namespace_id: ns.id, content_type: "text/plain", content: "x" },
    });
    expect(readOnlyAdd.status).toBe(403);
    expect((await api("DELETE", `/documents/${document.id}`, { key: readOnly.secret })).status).toBe(403);
    expect((await documentOf(tenant.key, document.id)).status).toBe("ready");

    // Forgetting the identity erases its documents, originals included, processed or still queued.
    const queued = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/plain",
      content: "Another note of user 7.",
      identity_id: "user-7",
    });
    const forget = await api("POST", "/forget", {
      key: tenant.key,
      body: { namespace_id: ns.id, identity_id: "user-7" },
    });
    expect(forget.status).toBe(200);
    expect((await api("GET", `/documents/${document.id}`, { key: tenant.key })).status).toBe(404);
    expect((await api("GET", `/documents/${queued.id}`, { key: tenant.key })).status).toBe(404);
    await processDocuments();
    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "launch date" },
    });
    expect(recall.body.data).toEqual([]);
  });
});

describe("export and import", () => {
  test("an export carries documents with their originals; the import processes them again", async () => {
    const tenant = await createTenant("Docs Export");
    const source = await createNamespace(tenant.key);
    const target = await createNamespace(tenant.key);
    const uploaded = await uploadDocument(
      tenant.key,
      { bytes: await pdfOf(HANDBOOK, "Northwind handbook"), name: "handbook.pdf", type: "application/pdf" },
      { namespace_id: source.id, identity_id: "user-3" },
    );
    await processDocuments();
    await api("POST", "/remember", { key: tenant.key, body: { namespace_id: source.id, content: "A plain note." } });

    const exported = await routeRequest(
      new Request(`http://gateway.test/api/v1/namespaces/${source.id}/export`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    expect(exported.status).toBe(200);
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type)).toEqual(["header", "document", "memory"]);
    expect(lines[1]).toMatchObject({
      id: uploaded.body.data.id,
      content_type: "application/pdf",
      identity_id: "user-3",
    });

    const imported = await api("POST", `/namespaces/${target.id}/import`, {
      key: tenant.key,
      rawBody: lines.map((line) => JSON.stringify(line)).join("\n") + "\n",
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(imported.status).toBe(201);
    expect(imported.body.data).toMatchObject({ imported: 1, document_ids: [expect.any(String)] });
    await processDocuments();
    const copy = await documentOf(tenant.key, imported.body.data.document_ids[0]);
    expect(copy).toMatchObject({ status: "ready", pages: 3, title: "Northwind handbook", namespace_id: target.id });
    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: target.id, query: "parental leave weeks" },
    });
    expect(recall.body.data[0].document).toMatchObject({ id: copy.id, page: 2 });

    // A key bound to a scope imports no document outside it.
    const scoped = await createKey(tenant.org.id, { scopes: { team: "a" }, namespaceIds: [target.id] });
    const refused = await api("POST", `/namespaces/${target.id}/import`, {
      key: scoped.secret,
      rawBody: [lines[0], lines[1]].map((line) => JSON.stringify(line)).join("\n") + "\n",
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(refused.status).toBe(403);
  });
});

describe("what could stop the server", () => {
  test("a heading longer than a passage is cut, not looped on", async () => {
    const tenant = await createTenant("Docs Heading");
    const ns = await createNamespace(tenant.key);
    const document = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/markdown",
      content: `# ${"A".repeat(2100)}\n\nThe boiler is serviced every October.\n`,
    });
    await processDocuments();
    expect(await documentOf(tenant.key, document.id)).toMatchObject({ status: "ready", chunk_count: 1 });
    const recall = await api("POST", "/recall", {
      key: tenant.key,
      body: { namespace_id: ns.id, query: "when is the boiler serviced" },
    });
    expect(recall.body.data[0].document.section.length).toBeLessThanOrEqual(200);
    expect(recall.body.data[0].content).toContain("The boiler is serviced every October.");
  });

  test("a document whose processing took its process down at every attempt fails, not run again", async () => {
    const tenant = await createTenant("Docs Exhausted");
    const ns = await createNamespace(tenant.key);
    const document = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/plain",
      content: "Imagine this file crashed the server.",
    });
    // Three claims whose process died each time: what the queue sees after three crashes and restarts.
    const prisma = await db();
    await prisma.job.updateMany({
      where: { key: `document:${document.id}` },
      data: { attempts: 3, status: "queued" },
    });
    await processDocuments();
    const failed = await documentOf(tenant.key, document.id);
    expect(failed).toMatchObject({ status: "failed", chunk_count: 0 });
    expect(failed.error).toMatch(/stopped the server each time/);
    const [job] = await prisma.job.findMany({ where: { key: `document:${document.id}` } });
    expect(job).toMatchObject({ status: "failed" });
  });
});
