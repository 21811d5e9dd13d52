// A document's original replaced while it is being replaced or read (issue 50 review): two refreshes of one URL
// document (a job run again once its lease expired, the first still running) each write a generation of their
// own, and the one that loses keeps nothing; a refresh whose answer lost is not read (its bytes were never
// stored) and fails nothing; an export reading an original that a refresh replaces reads the document again.
// The moments are made by hooks in the database's statements and the URL's answer, so each race is certain.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "@/lib/db";
import { exportNamespaceForOperator } from "@/lib/portability/export";
import { originalBytes, originalVersion, replaceOriginal } from "@/lib/documents/document-originals";
import { api } from "../helpers/api";
import { addDocument, processDocuments, uploadDocument } from "../helpers/documents";
import { createNamespace, createTenant } from "../helpers/fixtures";

const hooks = vi.hoisted(() => ({
  /** Runs once, after the next statement reading document_parts has its rows. */
  afterPartsRead: undefined as undefined | (() => Promise<void>),
}));

vi.mock("@/lib/db", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/db")>();
  return {
    ...actual,
    queryColumnBytes: async (statement: { text: string }) => {
      const rows = await actual.queryColumnBytes(statement as Parameters<typeof actual.queryColumnBytes>[0]);
      const hook = hooks.afterPartsRead;
      if (hook && /SELECT[\s\S]*FROM document_parts/.test(statement.text)) {
        hooks.afterPartsRead = undefined;
        await hook();
      }
      return rows;
    },
  };
});

const MiB = 1024 * 1024;
/** Text of `bytes` bytes that says `what` (distinct originals, so none is taken for another). */
const textOf = (what: string, bytes: number) =>
  Buffer.from(`${what}\n`.repeat(Math.ceil(bytes / (what.length + 1)))).subarray(0, bytes);

let tenant: Awaited<ReturnType<typeof createTenant>>;
let namespaceId: string;
beforeAll(async () => {
  tenant = await createTenant("Refresh races");
  namespaceId = (await createNamespace(tenant.key, { name: "races" })).id;
});

async function stored(what: string, bytes: number) {
  const upload = await uploadDocument(
    tenant.key,
    { bytes: textOf(what, bytes), name: `${what}.txt`, type: "text/plain" },
    { namespace_id: namespaceId },
  );
  expect(upload.status).toBe(202);
  return upload.body.data.id as string;
}

async function documentRow(id: string) {
  return (await db()).document.findFirstOrThrow({ where: { id, orgId: tenant.org.id } });
}

async function generations(id: string) {
  const parts = await (
    await db()
  ).documentPart.groupBy({ by: ["generation"], where: { orgId: tenant.org.id, documentId: id }, _count: true });
  return parts.map((part) => part.generation);
}

describe("a refresh whose answer another refresh beat", () => {
  const answers = {
    first: "The page as it was first fetched.",
    mine: "This run's answer, which was never stored.",
    theirs: "The other refresh's answer.",
  };
  let answer = answers.first;
  /** Run as the URL is fetched: the other refresh switches the document first. */
  let meanwhile: (() => Promise<void>) | undefined;
  const server = http.createServer(async (_request, response) => {
    const hook = meanwhile;
    meanwhile = undefined;
    await hook?.();
    response.writeHead(200, { "content-type": "text/plain" }).end(answer);
  });
  let origin: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("is not read and fails nothing: the document has the winner's original", async () => {
    process.env.ALLOW_PRIVATE_OUTBOUND = "true";
    try {
      const { id } = await addDocument(tenant.key, { namespace_id: namespaceId, url: `${origin}/page.txt` });
      await processDocuments();
      expect((await documentRow(id)).status).toBe("ready");

      answer = answers.mine;
      const theirs = Buffer.from(answers.theirs);
      meanwhile = async () => {
        const current = (await documentRow(id)).partsGeneration;
        expect(await replaceOriginal({ orgId: tenant.org.id, documentId: id }, current, theirs, "text/plain")).toBe(
          true,
        );
      };
      expect((await api("POST", `/documents/${id}/refresh`, { key: tenant.key })).status).toBe(202);
      await processDocuments();

      const document = await documentRow(id);
      // Before: this run read and stored the bytes it had fetched, though the document's original is another's.
      expect(document.status).not.toBe("failed");
      expect(document.error).toBeNull();
      expect(Buffer.from((await originalBytes(originalVersion(document)))!).equals(theirs)).toBe(true);
      const passages = await (
        await db()
      ).memory.findMany({ where: { orgId: tenant.org.id, documentId: id }, select: { content: true } });
      expect(passages.some((passage) => passage.content.includes("never stored"))).toBe(false);
    } finally {
      delete process.env.ALLOW_PRIVATE_OUTBOUND;
    }
  }, 120_000);
});

// Uploads from here on stay queued, unread: the runs above would read them (they run every due job).
describe("two refreshes of one document at once", () => {
  test("one wins whole, the other keeps nothing; never parts of both in one generation", async () => {
    const id = await stored("the first upload", 600 * 1024);
    const ref = { orgId: tenant.org.id, documentId: id };
    const one = textOf("one refresh's answer", 1.5 * MiB);
    const other = textOf("the other refresh's answer", 1.5 * MiB + 7);

    // Both from generation 0, their statements interleaved. Before: both wrote generation 1 (a duplicate key,
    // or one's parts deleted by the other as leftovers of a crash).
    const won = await Promise.all([
      replaceOriginal(ref, 0, one, "text/plain"),
      replaceOriginal(ref, 0, other, "text/plain"),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = won[0] ? one : other;
    const document = await documentRow(id);
    expect(document.byteSize).toBe(winner.length);
    expect(Buffer.from((await originalBytes(originalVersion(document)))!).equals(winner)).toBe(true);
    expect(await generations(id)).toEqual([document.partsGeneration]);
  });
});

describe("an export while a refresh replaces an original", () => {
  test("reads the document again and has its new original whole", async () => {
    // More than one read of parts (4 of 512 KiB), so the refresh comes between two of them.
    const id = await stored("the original before the refresh", 3 * MiB);
    const replacement = textOf("the refreshed original", 3 * MiB + 11);
    hooks.afterPartsRead = async () => {
      const current = (await documentRow(id)).partsGeneration;
      expect(await replaceOriginal({ orgId: tenant.org.id, documentId: id }, current, replacement, "text/plain")).toBe(
        true,
      );
    };

    const lines = [];
    // Before: the export failed midway, "replaced or deleted while it was read".
    for await (const line of (await exportNamespaceForOperator(namespaceId, { includeVectors: false })).items) {
      lines.push(line as { type: string; id?: string; original?: string });
    }
    expect(hooks.afterPartsRead).toBeUndefined();
    const exported = lines.find((line) => line.type === "document" && line.id === id);
    expect(Buffer.from(exported!.original!, "base64").equals(replacement)).toBe(true);
  }, 60_000);
});
