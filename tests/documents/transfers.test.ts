// Uploads and downloads of documents through the API's routes, in process: an original is stored in parts of
// 512 KiB and read back byte-identical; an upload cut off mid-body leaves nothing (no document, no part, no
// temporary file); each organization has its share of transfer turns (past it: 429 with Retry-After), the server
// its total (past it: 503 with Retry-After), and a download holds its turn until it is read; and a database that
// cannot start a transaction in time is a 503 with Retry-After, in the API's envelope and in the console's form,
// never a 500; a download reads one version of an original whole, a URL's refresh meanwhile or not.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db, getDatabase } from "@/lib/db";
import { setting } from "@/lib/config";
import { formFailure } from "@/lib/console/action";
import { toErrorResponse } from "@/lib/http/envelope";
import { BUSY_MESSAGE } from "@/lib/http/errors";
import { originalStream, sweepAbandonedParts } from "@/lib/documents/document-originals";
import { api, routeRequest } from "../helpers/api";
import { addDocument, processDocuments } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";

const KiB = 1024;

/** A PNG header claiming a huge canvas, then filler: a file the server takes, and refuses to decode later. */
function pngOf(bytes: number, seed = "x"): Buffer {
  const file = Buffer.alloc(bytes, `${seed} filler `);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(file, 0);
  file.write("IHDR", 12, "latin1");
  file.writeUInt32BE(100_000, 16);
  file.writeUInt32BE(100_000, 20);
  return file;
}

const BOUNDARY = "----memgw-transfers-boundary";

/** The multipart body of POST /documents around `file`, in its three pieces: start, file, end. */
function multipart(namespaceId: string, file: Buffer) {
  const start = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="namespace_id"\r\n\r\n${namespaceId}\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="scan"\r\n` +
      `Content-Type: image/png\r\n\r\n`,
  );
  return { start, file, end: Buffer.from(`\r\n--${BOUNDARY}--\r\n`) };
}

/**
 * An upload whose body arrives as the test lets it: `send()` the rest (or `cut()` it off); `answer` is the
 * response. The first bytes go at once, so the request holds its turn while it waits.
 */
function heldUpload(key: string, namespaceId: string, file: Buffer) {
  const pieces = multipart(namespaceId, file);
  const client = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(new Uint8Array(pieces.start));
      c.enqueue(new Uint8Array(pieces.file.subarray(0, 1000)));
    },
  });
  const answer = routeRequest(
    new Request("http://gateway.test/api/v1/documents", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body,
      duplex: "half",
      signal: client.signal,
    } as RequestInit),
  ).then(async (response) => ({ status: response.status, headers: response.headers, body: await response.json() }));
  return {
    answer,
    send() {
      controller.enqueue(new Uint8Array(pieces.file.subarray(1000)));
      controller.enqueue(new Uint8Array(pieces.end));
      controller.close();
      return answer;
    },
    cut() {
      controller.error(new Error("the client went away"));
      return answer;
    },
    /**
     * The client goes away as Next reports it: the request's signal aborts while the body neither ends nor
     * fails (a body Next copied for proxy.ts just stops). Answers what the server said within 5 s, or "waiting".
     */
    leave() {
      client.abort();
      const waiting = new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 5_000).unref());
      return Promise.race([answer, waiting]);
    },
  };
}

async function upload(key: string, namespaceId: string, file: Buffer) {
  const pieces = multipart(namespaceId, file);
  const response = await routeRequest(
    new Request("http://gateway.test/api/v1/documents", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: Buffer.concat([pieces.start, pieces.file, pieces.end]),
    }),
  );
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function expectRefused(answer: { status: number; headers: Headers; body: any }, status: 429 | 503) {
  expect(answer.status).toBe(status);
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(answer.body).toMatchObject({
    success: false,
    error: { code: status === 429 ? "RATE_LIMITED" : "SERVICE_UNAVAILABLE", message: expect.any(String) },
  });
}

async function documentCount(orgId: string) {
  return (await db()).document.count({ where: { orgId } });
}

async function partsOf(orgId: string) {
  return (await db()).documentPart.findMany({
    where: { orgId },
    select: { documentId: true, position: true, bytes: true },
    orderBy: [{ documentId: "asc" }, { position: "asc" }],
  });
}

/** This process's upload files left in the spool directory (lib/http/spool.ts). */
function spooledFiles(): string[] {
  const dir = path.join(os.tmpdir(), "memgw-uploads");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith(`${process.pid}-`)) : [];
}

const SETTINGS = ["TRANSFERS_PER_ORGANIZATION", "TRANSFERS_MAX", "TRANSFER_WAIT_SECONDS"] as const;
afterEach(() => {
  for (const name of SETTINGS) delete process.env[name];
});

let tenant: Awaited<ReturnType<typeof createTenant>>;
let namespaceId: string;
beforeAll(async () => {
  tenant = await createTenant("Transfers");
  namespaceId = (await createNamespace(tenant.key, { name: "scans" })).id;
});

describe("an original in parts", () => {
  test("an upload is stored in parts of 512 KiB and downloads byte-identical", async () => {
    const file = pngOf(1300 * KiB, "parts");
    const answer = await upload(tenant.key, namespaceId, file);
    expect(answer.status).toBe(202);
    const id = answer.body.data.id;
    expect(answer.body.data.size_bytes).toBe(file.length);
    const parts = (await partsOf(tenant.org.id)).filter((part) => part.documentId === id);
    expect(parts.map((part) => [part.position, part.bytes.byteLength])).toEqual([
      [0, 512 * KiB],
      [1, 512 * KiB],
      [2, 276 * KiB],
    ]);
    const response = await routeRequest(
      new Request(`http://gateway.test/api/v1/documents/${id}/content`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(file.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(file)).toBe(true);
    // Deleted, the document takes its parts with it.
    expect((await api("DELETE", `/documents/${id}`, { key: tenant.key })).status).toBe(200);
    expect((await partsOf(tenant.org.id)).filter((part) => part.documentId === id)).toEqual([]);
  });

  test("an upload cut off mid-body, or refused, leaves no document, no part and no temporary file", async () => {
    const before = await documentCount(tenant.org.id);
    const held = heldUpload(tenant.key, namespaceId, pngOf(900 * KiB, "cut"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cut = await held.cut();
    expect(cut.status).toBe(400);
    expect(cut.body.success).toBe(false);
    // Text with a NUL where neither its start nor its end (what its type is told by) shows it: 415, and
    // nothing kept of it either.
    const text = Buffer.alloc(2000 * KiB, "plain text ");
    text[1500 * KiB] = 0;
    const pieces = multipart(namespaceId, text);
    const response = await routeRequest(
      new Request("http://gateway.test/api/v1/documents", {
        method: "POST",
        headers: {
          authorization: `Bearer ${tenant.key}`,
          "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body: Buffer.concat([
          Buffer.from(pieces.start.toString().replace("image/png", "text/plain")),
          text,
          pieces.end,
        ]),
      }),
    );
    expect(response.status).toBe(415);
    expect(await documentCount(tenant.org.id)).toBe(before);
    const orphans = (await partsOf(tenant.org.id)).filter((part) => part.position === 0);
    const documents = new Set(
      (await (await db()).document.findMany({ where: { orgId: tenant.org.id }, select: { id: true } })).map(
        (document) => document.id,
      ),
    );
    expect(orphans.filter((part) => !documents.has(part.documentId))).toEqual([]);
    expect(spooledFiles()).toEqual([]);
  });
});

describe("transfer turns", () => {
  test("uploads whose clients go away mid-body give their turns back at once and leave nothing", async () => {
    process.env.TRANSFERS_PER_ORGANIZATION = "2";
    process.env.TRANSFER_WAIT_SECONDS = "0";
    const before = await documentCount(tenant.org.id);
    const held = [heldUpload(tenant.key, namespaceId, pngOf(900 * KiB, "gone 1"))];
    held.push(heldUpload(tenant.key, namespaceId, pngOf(900 * KiB, "gone 2")));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Both of the organization's turns are held by the two bodies under way.
    expectRefused(await upload(tenant.key, namespaceId, pngOf(10 * KiB, "while held")), 429);
    for (const answer of await Promise.all(held.map((upload) => upload.leave()))) {
      expect(answer).toMatchObject({ status: 400, body: { error: { message: /not received whole/ } } });
    }
    // The organization takes both its turns again, and nothing of the two is kept.
    const again = await Promise.all([1, 2].map((n) => upload(tenant.key, namespaceId, pngOf(10 * KiB, `again ${n}`))));
    expect(again.map((answer) => answer.status)).toEqual([202, 202]);
    expect(await documentCount(tenant.org.id)).toBe(before + 2);
    expect(spooledFiles()).toEqual([]);
  });

  const title =
    "past its share an organization gets 429, past the server's total another gets 503, " +
    "both with Retry-After; nothing of either is stored";
  test(title, async () => {
    process.env.TRANSFERS_PER_ORGANIZATION = "1";
    process.env.TRANSFERS_MAX = "2";
    process.env.TRANSFER_WAIT_SECONDS = "1";
    const b = await createTenant("Transfers B");
    const c = await createTenant("Transfers C");
    const bNamespace = (await createNamespace(b.key, { name: "b" })).id;
    const cNamespace = (await createNamespace(c.key, { name: "c" })).id;
    const countBefore = await documentCount(tenant.org.id);

    // A's and B's uploads hold the server's two turns while their bodies arrive.
    const heldA = heldUpload(tenant.key, namespaceId, pngOf(700 * KiB, "a"));
    const heldB = heldUpload(b.key, bNamespace, pngOf(700 * KiB, "b"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A's next two: one waits its turn for a second, then 429; the other finds A's share waiting already: 429 now.
    const [waited, refused] = await Promise.all([
      upload(tenant.key, namespaceId, pngOf(10 * KiB, "a2")),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() =>
        upload(tenant.key, namespaceId, pngOf(10 * KiB, "a3")),
      ),
    ]);
    expectRefused(waited, 429);
    expectRefused(refused, 429);
    // C is within its share, but the server has none free within a second: 503.
    const busy = await upload(c.key, cNamespace, pngOf(10 * KiB, "c"));
    expectRefused(busy, 503);

    expect((await heldA.send()).status).toBe(202);
    expect((await heldB.send()).status).toBe(202);
    expect(await documentCount(tenant.org.id)).toBe(countBefore + 1);
    expect(await documentCount(c.org.id)).toBe(0);
    // Turns given back: C's upload now goes in.
    expect((await upload(c.key, cNamespace, pngOf(10 * KiB, "c"))).status).toBe(202);
  });

  test("a download holds its organization's turn until it is read", async () => {
    const stored = await upload(tenant.key, namespaceId, pngOf(1200 * KiB, "download"));
    expect(stored.status).toBe(202);
    process.env.TRANSFERS_PER_ORGANIZATION = "1";
    process.env.TRANSFER_WAIT_SECONDS = "0";
    const download = await routeRequest(
      new Request(`http://gateway.test/api/v1/documents/${stored.body.data.id}/content`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    expect(download.status).toBe(200);
    // Not read yet: the organization's one turn is the download's.
    expectRefused(await upload(tenant.key, namespaceId, pngOf(10 * KiB, "during")), 429);
    expect((await download.arrayBuffer()).byteLength).toBe(1200 * KiB);
    expect((await upload(tenant.key, namespaceId, pngOf(10 * KiB, "after"))).status).toBe(202);
  });

  test("a HEAD of the original answers its headers and holds no turn", async () => {
    const stored = await upload(tenant.key, namespaceId, pngOf(1200 * KiB, "head"));
    expect(stored.status).toBe(202);
    process.env.TRANSFERS_PER_ORGANIZATION = "1";
    process.env.TRANSFER_WAIT_SECONDS = "0";
    for (let i = 0; i < 3; i++) {
      const head = await routeRequest(
        new Request(`http://gateway.test/api/v1/documents/${stored.body.data.id}/content`, {
          method: "HEAD",
          headers: { authorization: `Bearer ${tenant.key}` },
        }),
      );
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(1200 * KiB));
      expect(head.headers.get("content-disposition")).toMatch(/^attachment/);
    }
    // Had any of them kept the organization's one turn, this would be a 429.
    expect((await upload(tenant.key, namespaceId, pngOf(10 * KiB, "after heads"))).status).toBe(202);
  });

  test("a download whose reader takes nothing for the idle time ends and gives its turn back", async () => {
    // Larger than two reads of parts (what a stream holds ahead of its reader), so it is not all read at once.
    const size = 5 * 1024 * KiB;
    const stored = await upload(tenant.key, namespaceId, pngOf(size, "idle"));
    expect(stored.status).toBe(202);
    let released = 0;
    const version = { orgId: tenant.org.id, documentId: stored.body.data.id, generation: 0, size };
    const stream = originalStream(version, () => released++, 300);
    const reader = stream.getReader();
    expect((await reader.read()).value?.byteLength).toBe(512 * KiB);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(released).toBe(1);
    await expect(reader.read()).rejects.toThrow(/took nothing for 0.3 s/);
    // A reader that keeps reading is never cut off, however long the whole takes.
    const steady = originalStream(version, () => released++, 3000);
    const steadyReader = steady.getReader();
    let bytes = 0;
    for (let part = await steadyReader.read(); !part.done; part = await steadyReader.read()) {
      bytes += part.value.byteLength;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(bytes).toBe(size);
    expect(released).toBe(2);
  });
});

describe("an original whose parts disagree with its document's size", () => {
  /** A download's status and what its body gave before it ended or failed. */
  async function download(id: string) {
    const response = await routeRequest(
      new Request(`http://gateway.test/api/v1/documents/${id}/content`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );
    const reader = response.body!.getReader();
    let bytes = 0;
    try {
      for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
      return { status: response.status, bytes, failed: "" };
    } catch (error) {
      return { status: response.status, bytes, failed: (error as Error).message };
    }
  }

  test.each([
    ["more bytes than its size: the download is cut at its size, never longer", -100],
    ["fewer bytes than its size: the download fails, never ends as if whole", +100],
  ])("%s", async (_, change) => {
    const size = 1200 * KiB;
    const stored = await upload(tenant.key, namespaceId, pngOf(size, `size ${change}`));
    expect(stored.status).toBe(202);
    const said = size + change;
    await (
      await db()
    ).document.updateMany({ where: { id: stored.body.data.id, orgId: tenant.org.id }, data: { byteSize: said } });

    const answer = await download(stored.body.data.id);
    expect(answer.status).toBe(200);
    // Before: the whole 1200 KiB sent under a Content-Length of 100 bytes fewer (the rest read by the client as
    // the next response), or 100 bytes short with the stream ending normally.
    expect(answer.failed).toMatch(/does not have its \d+ bytes/);
    expect(answer.bytes).toBeLessThanOrEqual(said);
  });
});

describe("a URL document refreshed during a download", () => {
  // The URL's answer: a PNG the server stores and then refuses to decode (no extraction work), 5 MiB at first
  // (10 parts: more than the two reads of 4 a download holds ahead of its reader), then a longer one (a
  // download going on by position alone would find every part it wants, of the wrong version).
  const first = pngOf(5 * 1024 * KiB, "first answer");
  const second = pngOf(5 * 1024 * KiB + 7, "second answer");
  let answer = first;
  let origin: string;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "image/png", "content-length": answer.length });
    response.end(answer);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const download = (id: string) =>
    routeRequest(
      new Request(`http://gateway.test/api/v1/documents/${id}/content`, {
        headers: { authorization: `Bearer ${tenant.key}` },
      }),
    );

  test("a download under way reads only the version it started with, or fails; never old and new mixed", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    try {
      const document = await addDocument(tenant.key, { namespace_id: namespaceId, url: `${origin}/scan.png` });
      await processDocuments();
      const started = await download(document.id);
      expect(started.status).toBe(200);
      expect(started.headers.get("content-length")).toBe(String(first.length));
      const reader = started.body!.getReader();
      const received: Uint8Array[] = [(await reader.read()).value!];

      // The URL answers something else now, and the document is refreshed while the download is under way.
      answer = second;
      expect((await api("POST", `/documents/${document.id}/refresh`, { key: tenant.key })).status).toBe(202);
      await processDocuments();

      // The rest of the first version is gone: the download fails instead of going on with the new parts.
      const rest = (async () => {
        for (let part = await reader.read(); !part.done; part = await reader.read()) received.push(part.value);
      })();
      await expect(rest).rejects.toThrow(/replaced or deleted while it was read/);
      const read = Buffer.concat(received);
      expect(read.length).toBeLessThan(first.length);
      expect(read.equals(first.subarray(0, read.length))).toBe(true);

      // A download started now reads the new version whole, and only it is stored.
      const after = await download(document.id);
      expect(after.headers.get("content-length")).toBe(String(second.length));
      expect(Buffer.from(await after.arrayBuffer()).equals(second)).toBe(true);
      const generations = await (
        await db()
      ).documentPart.groupBy({
        by: ["generation"],
        where: { orgId: tenant.org.id, documentId: document.id },
        _count: true,
      });
      expect(generations).toEqual([{ generation: 2, _count: 11 }]);
    } finally {
      delete process.env.ALLOW_PRIVATE_OUTBOUND;
      answer = first;
    }
  }, 180_000);
});

describe("the sweep of parts no document has", () => {
  test("deletes an hour-old upload's parts and a crashed refresh's generations, not an original", async () => {
    const stored = await upload(tenant.key, namespaceId, pngOf(600 * KiB, "swept"));
    expect(stored.status).toBe(202);
    const id = stored.body.data.id;
    const prisma = await db();
    const old = new Date(Date.now() - 2 * 60 * 60_000);
    const part = (documentId: string, generation: number, createdAt = old) => ({
      documentId,
      orgId: tenant.org.id,
      generation,
      position: 0,
      bytes: new Uint8Array([1, 2, 3]),
      createdAt,
    });
    await prisma.documentPart.updateMany({ where: { documentId: id }, data: { createdAt: old } });
    await prisma.documentPart.createMany({
      data: [part("doc_never_stored", 0), part(id, 1), part(id, 2, new Date())],
    });
    await sweepAbandonedParts();
    const left = await prisma.documentPart.findMany({
      where: { documentId: { in: [id, "doc_never_stored"] } },
      select: { documentId: true, generation: true, position: true },
      orderBy: [{ generation: "asc" }, { position: "asc" }],
    });
    // The document's own two parts (generation 0) and a refresh's generation still being written (young) stay.
    expect(left).toEqual([
      { documentId: id, generation: 0, position: 0 },
      { documentId: id, generation: 0, position: 1 },
      { documentId: id, generation: 2, position: 0 },
    ]);
  });
});

describe("a database too busy to start a transaction", () => {
  test("is answered 503 with Retry-After in the envelope and the console's form, not 500", async () => {
    const prisma = await db();
    // Every connection held in a transaction (the embedded database has one), then one more asked for with
    // 50 ms to start: Prisma's own P2028.
    const held = (await getDatabase()).kind === "postgres" ? setting("DATABASE_POOL_SIZE") : 1;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = Array.from({ length: held }, () =>
      prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT 1`;
          await released;
        },
        { timeout: 30_000 },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const error = await prisma
      .$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 50 })
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    release();
    await Promise.all(holding);
    expect((error as { code?: string }).code).toBe("P2028");

    const response = toErrorResponse(error);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await response.json()).toMatchObject({
      success: false,
      error: { code: "SERVICE_UNAVAILABLE", message: BUSY_MESSAGE },
    });
    // The console shows why and that nothing changed, not "something went wrong".
    expect(formFailure(error)).toEqual({ ok: false, error: BUSY_MESSAGE });
  });
});
