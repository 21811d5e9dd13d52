// Documents made to exhaust memory (issue 50, item 1), uploaded over HTTP to the production build (`npm start`,
// on the embedded database or on PostgreSQL as the run says): each fails once with the reason, and the server's
// memory (its process and the processes it starts) grows by less than 1 GiB, read from /proc. Legitimate PDFs,
// DOCX files and images still read. Then, in this process, extractions beyond DOCUMENT_EXTRACTION_CONCURRENCY
// wait for their turn. Last, the server is killed with -9 in the middle of a reading, which ends at once.
import fs from "node:fs";
import path from "node:path";
import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildIfNeeded } from "../../scripts/build-if-needed.mjs";
import { extractDocument } from "@/lib/documents/extract";
import { extractInWorker, extractionLoad } from "@/lib/documents/extract/isolated";
import { docxBomb, pdfContentStreamBomb, pdfImageBomb } from "../helpers/bombs";
import { newDataDir } from "../helpers/embedded-template";
import { pdfOf } from "../helpers/pdf";
import { createTestDatabase, onPostgres } from "../helpers/postgres";
import type { ScratchDatabase } from "../helpers/postgres-databases";
import { freePort, startServer, type RunningServer } from "../helpers/server";

// The build directory the other files that start the production server share (builds take turns).
process.env.MEMGW_DIST_DIR = ".next-test-server";

const GiB = 1024 * 1024 * 1024;
const mib = (bytes: number) => Math.round(bytes / (1024 * 1024));
const KEY = "mgw_documentBombsBootstrapKey0123456789abc";
const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const dir = newDataDir("memgw-document-bombs-");
let server: RunningServer;
let namespaceId: string;
let database: ScratchDatabase | undefined;

beforeAll(async () => {
  buildIfNeeded({ quiet: true });
  // The server's database as the run says (the readings are the same on either).
  if (onPostgres()) database = await createTestDatabase();
  server = await startServer({
    ...(database
      ? { DATABASE_URL: database.url, KEY_PEPPER: "bombs-pepper", ENCRYPTION_KEY: "bombs-encryption-key" }
      : { DATA_DIR: dir }),
    PORT: String(await freePort()),
    MEMGW_INIT_ORG_NAME: "Bombs Inc",
    MEMGW_INIT_USER_EMAIL: "owner@bombs.example",
    MEMGW_INIT_USER_PASSWORD: "a long password for the bombs",
    MEMGW_INIT_API_KEY: KEY,
  });
  const created = await call("POST", "/namespaces", { name: "bombs" });
  expect(created.status).toBe(201);
  namespaceId = created.body.data.id;
}, 900_000);

afterAll(async () => {
  await server?.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, urlPath: string, body?: unknown) {
  const response = await fetch(`${server.base}/api/v1${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

interface DocumentBody {
  id: string;
  status: string;
  error: string | null;
  pages: number | null;
}

/** Uploads the file and follows the document until it is ready or failed: every status seen, in order. */
async function uploadAndSettle(bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.append("namespace_id", namespaceId);
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${server.base}/api/v1/documents`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}` },
    body: form,
  });
  const accepted = await response.json();
  expect(response.status, JSON.stringify(accepted)).toBe(202);
  const seen: string[] = [];
  for (const started = Date.now(); Date.now() - started < 600_000;) {
    const document = (await call("GET", `/documents/${accepted.data.id}`)).body.data as DocumentBody;
    if (seen[seen.length - 1] !== document.status) seen.push(document.status);
    if (document.status === "ready" || document.status === "failed") return { document, seen };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`document ${accepted.data.id} did not settle: ${seen.join(" → ")}`);
}

/** A /proc/<pid>/status field in bytes (VmRSS, VmHWM), or 0 for a process gone. */
function memoryOf(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/status`, "latin1"));
    return Number(match?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The process and its descendants (the readings' child processes among them). */
function processTree(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const thread of fs.readdirSync(`/proc/${pid}/task`)) {
      const listed = fs.readFileSync(`/proc/${pid}/task/${thread}/children`, "latin1").trim();
      if (listed) children.push(...listed.split(/\s+/).map(Number));
    }
  } catch {
    // gone meanwhile
  }
  return [pid, ...children.flatMap(processTree)];
}

/** The resident memory of the server and everything it started, summed, sampled every 20 ms until stopped. */
function watchPeak(pid: number) {
  const sample = () => processTree(pid).reduce((sum, member) => sum + memoryOf(member, "VmRSS"), 0);
  let peak = sample();
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, sample());
    },
  };
}

describe("documents made to exhaust memory, on the production server", { timeout: 900_000 }, () => {
  test.each([
    [
      "a 564 KB PDF whose one page draws 16 separate 6000×6000 grey images",
      () => pdfImageBomb(16, 6000),
      PDF,
      "images.pdf",
    ],
    ["a DOCX whose word/document.xml expands to 1.2 GB", () => docxBomb(1200 * 1024 * 1024), DOCX, "expands.docx"],
    ["a PDF whose content stream expands to 1.5 GB", () => pdfContentStreamBomb(1536 * 1024 * 1024), PDF, "stream.pdf"],
  ])("%s fails once with the reason; the server's memory grows < 1 GiB", async (_, build, type, name) => {
    const bytes = await build();
    const baseline = processTree(server.pid).reduce((sum, member) => sum + memoryOf(member, "VmRSS"), 0);
    const highWaterBefore = memoryOf(server.pid, "VmHWM");
    const watch = watchPeak(server.pid);
    const { document, seen } = await uploadAndSettle(bytes, name, type).finally(() => watch.stop());
    const peak = watch.stop();

    console.info(`${name}: ${document.error} Peak ${mib(peak)} MiB over ${mib(baseline)} MiB (${seen.join(" → ")})`);
    expect(document.status).toBe("failed");
    expect(document.error).toMatch(/^The document needs more than \d+ MB of memory to read\b/);
    // Once: never put back in the queue as a temporary failure.
    expect(seen.filter((status) => status === "queued").length).toBeLessThanOrEqual(1);
    expect(seen.slice(seen.indexOf("processing"))).not.toContain("queued");
    expect(peak - baseline, `peak ${mib(peak)} MiB over ${mib(baseline)} MiB`).toBeLessThan(GiB);
    expect(memoryOf(server.pid, "VmHWM") - highWaterBefore).toBeLessThan(GiB);
  });

  test("a multi-page PDF, a DOCX and an image still read", async () => {
    // Lines alike on every page, digits aside, would be taken for a running footer: each page says its own.
    const pdf = await pdfOf(
      [
        "lists every ship that came in before the storm",
        "names the cargo of each",
        "ends with the keeper's signature",
      ].map((line, index) => ({ heading: `Chapter ${index + 1}`, paragraphs: [`The harbour log ${line}.`] })),
    );
    const docx = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph({ text: "Travel policy", heading: HeadingLevel.HEADING_1 }),
              new Paragraph("Economy class is booked for flights shorter than six hours."),
            ],
          },
        ],
      }),
    );
    const png = fs.readFileSync(path.join(import.meta.dirname, "../fixtures/documents/scan-text.png"));
    const expected: [Uint8Array, string, string, string][] = [
      [pdf, "log.pdf", PDF, "ends with the keeper's signature"],
      [new Uint8Array(docx), "policy.docx", DOCX, "Economy class is booked"],
      [new Uint8Array(png), "scan.png", "image/png", "lighthouse keeper"],
    ];
    for (const [bytes, name, type, text] of expected) {
      const { document } = await uploadAndSettle(bytes, name, type);
      expect(document, name).toMatchObject({ status: "ready", error: null });
      const read = await call("GET", `/documents/${document.id}/text`);
      expect(JSON.stringify(read.body.data.blocks)).toContain(text);
    }
    const pages = (await call("GET", `/documents?namespace_id=${namespaceId}&status=ready`)).body.data;
    expect(pages.find((document: DocumentBody & { filename: string }) => document.filename === "log.pdf").pages).toBe(
      3,
    );
  });
});

describe("the readers' own limits", { timeout: 300_000 }, () => {
  test("a DOCX whose parts expand past 1/16 of the budget is refused with the size, before mammoth", async () => {
    const limits = { maxPages: 10, maxOcrPages: 1, timeoutMs: 120_000, memoryMb: 256 };
    const started = Date.now();
    await expect(extractDocument(await docxBomb(100 * 1024 * 1024), DOCX, limits)).rejects.toThrow(
      "The document needs more than 256 MB of memory to read (unpacked, word/document.xml and the parts before " +
        "it take more than 16 MB), so it was not read.",
    );
    // A zip whose directory understates the sizes is found out by JSZip, not believed.
    const lying = await docxBomb(100 * 1024 * 1024, { lying: true });
    await expect(extractDocument(lying, DOCX, limits)).rejects.toThrow(
      "The Word document is damaged and could not be read.",
    );
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe("the number of documents read at once", { timeout: 300_000 }, () => {
  test("beyond DOCUMENT_EXTRACTION_CONCURRENCY, extractions wait their turn and then all read", async () => {
    process.env.DOCUMENT_EXTRACTION_CONCURRENCY = "2";
    try {
      const pdf = await pdfOf([{ heading: "Turns", paragraphs: ["Each reading waits for a free turn first."] }]);
      const limits = { maxPages: 10, maxOcrPages: 1, timeoutMs: 120_000 };
      const readings = Array.from({ length: 5 }, () => extractInWorker(pdf, PDF, limits));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(extractionLoad()).toEqual({ running: 2, waiting: 3 });
      const documents = await Promise.all(readings);
      expect(documents.map((document) => document.blocks[0]?.text)).toEqual(
        Array(5).fill("Each reading waits for a free turn first."),
      );
      expect(extractionLoad()).toEqual({ running: 0, waiting: 0 });
    } finally {
      delete process.env.DOCUMENT_EXTRACTION_CONCURRENCY;
    }
  });
});

/** A process's state letter from /proc/<pid>/stat (R, S, Z…), or null once it is gone. */
function stateOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

/** The parent's process id from /proc/<pid>/stat. */
function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

const isReading = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("lib/documents/extract/worker.mjs");
  } catch {
    return false;
  }
};

// Last: it kills the server the file shares.
describe("a reading whose server is killed", { timeout: 600_000 }, () => {
  test("ends within seconds of the server's kill -9, in the middle of a long synchronous parse", async () => {
    let reading: number | undefined;
    const started = Date.now();
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${Math.round((Date.now() - started) / 100) / 10} s`);
    try {
      // A legitimate 15 MB page of 150,000 paragraphs: linkedom parses it in one synchronous call, and the
      // reading takes 10 to 20 s on this machine, within its memory budget (a peak of ~600 MB).
      const page = `<!doctype html><html><head><title>Harbour log</title></head><body>${Array.from(
        { length: 150_000 },
        (_, index) => `<p>Entry ${index}: a ship came in before the storm and unloaded its cargo at the pier.</p>`,
      ).join("\n")}</body></html>`;
      const form = new FormData();
      form.append("namespace_id", namespaceId);
      form.append("file", new Blob([page], { type: "text/html" }), "log.html");
      const uploaded = await fetch(`${server.base}/api/v1/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}` },
        body: form,
      });
      expect(uploaded.status).toBe(202);
      phase("uploaded");

      while (!reading && Date.now() - started < 120_000) {
        reading = processTree(server.pid).find(isReading);
        if (!reading) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(reading, "the reading process").toBeDefined();
      phase("reading");
      // Its libraries loaded (~150 MB) and the page being parsed.
      while (memoryOf(reading!, "VmRSS") < 250 * 1024 * 1024) {
        expect(Date.now() - started, "the reading to start parsing").toBeLessThan(120_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stateOf(reading!)).not.toBe("Z");
      phase("parsing");

      process.kill(parentOf(reading!), "SIGKILL");
      const killedAt = Date.now();
      // Gone, or a zombie (ended, its memory freed) if whoever adopted it does not reap it.
      while (stateOf(reading!) !== null && stateOf(reading!) !== "Z" && Date.now() - killedAt < 30_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const endedAfter = Date.now() - killedAt;
      console.info(`the reading process ended ${endedAfter} ms after its server was killed (${phases.join(", ")})`);
      // Before: it read on until the parse was done, and its event loop turned (10 to 30 s).
      expect(endedAfter).toBeLessThan(3_000);
    } finally {
      // Whatever this test started and left behind, by its id.
      if (reading && isReading(reading) && stateOf(reading) !== "Z") process.kill(reading, "SIGKILL");
    }
  });
});
