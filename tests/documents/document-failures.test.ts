// Documents that cannot be read fail once, clearly, through the API: tiny and degenerate files of every
// format (empty of text, one byte, only a BOM, a header alone, a truncated zip) end `failed` after one attempt
// with a sentence for people, never a library's exception text; an HTML page without <html> or <body> tags
// is read for its text. An unexpected exception in a reader is logged, and the document gets a generic
// message at once; only a failure of the machine (the reading thread could not start) is retried.
// Also: GET /documents/{id}/text answers 409 with the status until there is text, and text with NUL bytes
// is refused saying so.
import { afterEach, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { api } from "../helpers/api";
import { addDocument, processDocuments, uploadDocument } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";

/**
 * Fault injection at the reading thread's boundary, for what no file of ours makes a reader do: an input
 * starting with one of these markers fails there the way a library bug or an exhausted machine would. Any
 * other input is read for real.
 */
const faults = vi.hoisted(() => ({ workerInitFailures: 0 }));
vi.mock("@/lib/documents/extract/isolated", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/documents/extract/isolated")>();
  return {
    ...original,
    extractInWorker: (...args: Parameters<typeof original.extractInWorker>) => {
      const text = Buffer.from(args[0]).toString("utf8");
      if (text.startsWith("FAULT:library")) {
        return Promise.reject(new TypeError("Cannot read properties of undefined (reading 'firstElementChild')"));
      }
      if (text.startsWith("FAULT:thread") && faults.workerInitFailures > 0) {
        faults.workerInitFailures -= 1;
        return Promise.reject(
          // What child_process.fork's "error" event carries when no process can be started.
          Object.assign(new Error("spawn /usr/bin/node EAGAIN"), { code: "EAGAIN", syscall: "spawn /usr/bin/node" }),
        );
      }
      return original.extractInWorker(...args);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
  faults.workerInitFailures = 0;
});

interface DocumentJson {
  id: string;
  status: string;
  error: string | null;
  chunk_count: number;
}

/** Words of an exception's text that no sentence for people contains. */
const INTERNAL = /TypeError|RangeError|destructure|undefined|null\b|firstElementChild|exit code|stack|ERR_|EMFILE/;

async function documentOf(key: string, id: string): Promise<DocumentJson> {
  const response = await api("GET", `/documents/${id}`, { key });
  expect(response.status).toBe(200);
  return response.body.data;
}

async function jobOf(id: string) {
  const prisma = await db();
  const [job] = await prisma.job.findMany({ where: { key: `document:${id}` } });
  return job;
}

/** Uploads, processes until nothing is due, and answers the document and its job. */
async function uploadAndProcess(key: string, namespaceId: string, file: { bytes: Uint8Array; type: string }) {
  const name = `file.${file.type.split("/")[1].slice(0, 8)}`;
  const created = await uploadDocument(key, { ...file, name }, { namespace_id: namespaceId });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const id = created.body.data.id as string;
  await processDocuments();
  return { document: await documentOf(key, id), job: await jobOf(id) };
}

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const BOM = [0xef, 0xbb, 0xbf];

describe("HTML without its optional tags", () => {
  test("a bare word, a fragment, or a page without <html>, <head> and <body> is read for its text", async () => {
    const tenant = await createTenant("Docs Bare HTML");
    const ns = await createNamespace(tenant.key);
    for (const [html, text] of [
      ["hello", "hello"],
      ["<p>The boiler is serviced in October.</p>", "The boiler is serviced in October."],
      ["<!doctype html><title>Notes</title><p>Bins go out on Tuesdays.</p>", "Bins go out on Tuesdays."],
    ]) {
      const { document, job } = await uploadAndProcess(tenant.key, ns.id, {
        bytes: Buffer.from(html),
        type: "text/html",
      });
      expect(document, html).toMatchObject({ status: "ready", error: null, chunk_count: 1 });
      expect(job, html).toBeUndefined(); // done at the first attempt: a finished job is deleted
      const read = await api("GET", `/documents/${document.id}/text`, { key: tenant.key });
      expect(read.body.data.blocks.map((block: { text: string }) => block.text)).toEqual([text]);
    }
  });
});

describe("files that cannot be read", () => {
  // One test a file: each is read in a process of its own, and thirteen in one test took 54 of its 60 s on a
  // slow two-core machine beside another test file.
  const cases: [string, { bytes: Uint8Array; type: string }, RegExp | "ready"][] = [
    ["HTML, only a comment", { bytes: Buffer.from("<!-- nothing here -->"), type: "text/html" }, /No text/],
    ["HTML, an XML declaration", { bytes: Buffer.from('<?xml version="1.0"?>'), type: "text/html" }, /No text/],
    ["HTML, only a BOM", { bytes: Buffer.from(BOM), type: "text/html" }, /No text/],
    // A "<" is text, read as such.
    ["HTML, one byte", { bytes: Buffer.from("<"), type: "text/html" }, "ready"],
    ["Markdown, only a BOM", { bytes: Buffer.from(BOM), type: "text/markdown" }, /No text/],
    ["Markdown, one #", { bytes: Buffer.from("#"), type: "text/markdown" }, /No text/],
    ["text, only a BOM", { bytes: Buffer.from(BOM), type: "text/plain" }, /No text/],
    ["PDF, a header alone", { bytes: Buffer.from("%PDF-1.7\n"), type: "application/pdf" }, /not a valid PDF/],
    ["PDF, one byte", { bytes: Buffer.from("%"), type: "application/pdf" }, /not a valid PDF/],
    [
      "DOCX, a truncated zip",
      { bytes: Buffer.from("PK\u0003\u0004\u0014\u0000word/document.xml", "binary"), type: DOCX },
      /Word document is damaged/,
    ],
    ["DOCX, one byte", { bytes: Buffer.from("P"), type: DOCX }, /Word document is damaged/],
    [
      "PNG, a signature alone",
      { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: "image/png" },
      /image is damaged/,
    ],
    ["JPEG, a marker alone", { bytes: Buffer.from([0xff, 0xd8, 0xff]), type: "image/jpeg" }, /image is damaged/],
  ];
  test.each(cases)(
    "fail at the first attempt with a clear sentence, whatever the format: %s",
    async (name, file, message) => {
      const tenant = await createTenant(`Docs Degenerate ${name}`);
      const ns = await createNamespace(tenant.key);
      const { document, job } = await uploadAndProcess(tenant.key, ns.id, file);
      if (message === "ready") {
        expect(document).toMatchObject({ status: "ready" });
        return;
      }
      expect(document).toMatchObject({ status: "failed", chunk_count: 0 });
      expect(document.error).toMatch(message);
      expect(document.error).not.toMatch(INTERNAL);
      expect(job).toMatchObject({ status: "failed", attempts: 1 });
    },
  );

  test("an unexpected exception in a reader is logged; the document fails at once, said generally", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const tenant = await createTenant("Docs Reader Bug");
    const ns = await createNamespace(tenant.key);
    const { document, job } = await uploadAndProcess(tenant.key, ns.id, {
      bytes: Buffer.from("FAULT:library <p>A page a library chokes on.</p>"),
      type: "text/html",
    });
    expect(document).toMatchObject({ status: "failed", chunk_count: 0 });
    expect(document.error).toMatch(/could not be read/);
    expect(document.error).not.toMatch(INTERNAL);
    expect(job).toMatchObject({ status: "failed", attempts: 1 });
    // The exception's own text is for the server's log.
    expect(logged.mock.calls.flat().map(String).join(" ")).toMatch(/firstElementChild/);
  });

  test("a reading thread that could not start is retried, saying so without its internals, then succeeds", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    faults.workerInitFailures = 1;
    const tenant = await createTenant("Docs Thread");
    const ns = await createNamespace(tenant.key);
    const created = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/plain",
      content: "FAULT:thread The recycling is collected on Fridays.",
    });
    await processDocuments();
    const waiting = await documentOf(tenant.key, created.id);
    expect(waiting).toMatchObject({ status: "queued" });
    expect(waiting.error).toMatch(/will be tried again/);
    expect(waiting.error).not.toMatch(INTERNAL);
    expect(await jobOf(created.id)).toMatchObject({ status: "queued", attempts: 1 });
    // Its retry, due now rather than after the backoff.
    const prisma = await db();
    await prisma.job.updateMany({ where: { key: `document:${created.id}` }, data: { runAfter: new Date() } });
    await processDocuments();
    expect(await documentOf(tenant.key, created.id)).toMatchObject({ status: "ready", error: null, chunk_count: 1 });
  });
});

describe("GET /documents/{id}/text before there is text", () => {
  test("is 409 naming the status (queued, processing, failed); ready answers the blocks", async () => {
    const tenant = await createTenant("Docs Text Not Ready");
    const ns = await createNamespace(tenant.key);
    const queued = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/plain",
      content: "The gate code is 4412.",
    });
    const early = await api("GET", `/documents/${queued.id}/text`, { key: tenant.key });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ success: false, error: { code: "CONFLICT" } });
    expect(early.body.error.message).toMatch(/is queued: its text is not read yet/);

    const prisma = await db();
    await prisma.document.updateMany({ where: { id: queued.id }, data: { status: "processing" } });
    const during = await api("GET", `/documents/${queued.id}/text`, { key: tenant.key });
    expect(during.status).toBe(409);
    expect(during.body.error.message).toMatch(/is processing/);
    await prisma.document.updateMany({ where: { id: queued.id }, data: { status: "queued" } });

    await processDocuments();
    const ready = await api("GET", `/documents/${queued.id}/text`, { key: tenant.key });
    expect(ready.status).toBe(200);
    expect(ready.body.data.blocks).toEqual([{ page: null, section: [], text: "The gate code is 4412." }]);

    const failed = await addDocument(tenant.key, {
      namespace_id: ns.id,
      content_type: "text/html",
      content: "<!-- only a comment -->",
    });
    await processDocuments();
    const none = await api("GET", `/documents/${failed.id}/text`, { key: tenant.key });
    expect(none.status).toBe(409);
    expect(none.body.error.message).toMatch(/is failed: it could not be read/);
  });
});

describe("text with NUL bytes", () => {
  test("is 415 saying the content has NUL bytes (looks binary), not that text/plain is unsupported", async () => {
    const tenant = await createTenant("Docs NUL");
    const ns = await createNamespace(tenant.key);
    const upload = await uploadDocument(
      tenant.key,
      { bytes: Buffer.from("notes\u0000\u0001\u0002 more notes"), name: "notes.txt", type: "text/plain" },
      { namespace_id: ns.id },
    );
    const inline = await api("POST", "/documents", {
      key: tenant.key,
      body: {
        namespace_id: ns.id,
        content_type: "text/markdown",
        content_encoding: "base64",
        content: Buffer.from("# Title\u0000").toString("base64"),
      },
    });
    for (const refused of [upload, inline]) {
      expect(refused.status).toBe(415);
      expect(refused.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      expect(refused.body.error.message).toMatch(/NUL bytes/);
      expect(refused.body.error.message).toMatch(/binary/);
      expect(refused.body.error.message).not.toMatch(/not of a type we read/);
    }
    const latin1 = await uploadDocument(
      tenant.key,
      { bytes: Buffer.from("caf\u00e9 cr\u00e8me", "latin1"), name: "menu.txt", type: "text/plain" },
      { namespace_id: ns.id },
    );
    expect(latin1.status).toBe(415);
    expect(latin1.body.error.message).toMatch(/not valid UTF-8/);
    const list = await api("GET", `/documents?namespace_id=${ns.id}`, { key: tenant.key });
    expect(list.body.pagination.total).toBe(0);
  });
});
