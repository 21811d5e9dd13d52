// Resource isolation between organizations (issue 50) over HTTP against the production build (`npm start`), on
// the embedded database or a PostgreSQL server: what one organization's load does to another's latency and to the
// server's memory. Organization A uploads document bombs, a storm of 10 MB uploads, downloads a 50 MiB original
// many times at once, queues OCR, and points webhook endpoints at receivers that never answer; organization B meanwhile
// remembers, recalls, adds a small document and receives its own webhooks.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { docxBomb, largePdf, pdfContentStreamBomb, pdfImageBomb } from "../tests/helpers/bombs";
import { createScratchDatabase, type ScratchDatabase } from "../tests/helpers/postgres-databases";
import { freePort, startServer, type RunningServer } from "../tests/helpers/server";
import { rssGrowth } from "../tests/helpers/tree-rss";
import { embeddingsReady, figures, type RecallFigures } from "./lib/api-client";
import { WebhookReceiver } from "./lib/webhook-receiver";

export interface TransferFigures {
  requests: number;
  /** First answers by status (before any retry after a 429 or 503). */
  statuses: Record<string, number>;
  /** 5xx answers other than a 503 with Retry-After. */
  serverErrors: number;
  /** 429 and 503 answers without Retry-After. */
  withoutRetryAfter: number;
  seconds: number;
}

/** The other organization's latency, and its requests that failed, by status. */
export interface OtherFigures {
  remember: RecallFigures;
  recall: RecallFigures;
  errors: Record<string, number>;
}

export interface IsolationResult {
  database: string;
  bombs: { name: string; fileBytes: number; status: string; error: string | null; peakGrowthMiB: number }[];
  quiet: OtherFigures;
  uploads: TransferFigures & { sizeMiB: number; other: OtherFigures };
  downloads: TransferFigures & {
    sizeMiB: number;
    identical: number;
    other: OtherFigures;
  };
  sameFileDownloads: TransferFigures & { sizeMiB: number; peakGrowthMiB: number };
  smallDocument: { otherQueued: string; readySeconds: number };
  webhooks: { hanging: number; delivered: number; of: number; p50: number; p95: number; max: number }[];
}

const KEY_A = "mgw_benchmarkIsolationA000000000000000000000";
const UPLOADS = 20;
const UPLOAD_MIB = 10;
const DOWNLOADS = 10;
const SAME_FILE_DOWNLOADS = 20;
const DOWNLOAD_MIB = 50;
const QUIET_REQUESTS = 40;
const OCR_PAGES = 12;
const WEBHOOK_WRITES = 20;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  retryAfter: string | null;
  body: any;
}

function request(
  base: string,
  key: string,
  method: string,
  urlPath: string,
  body?: Buffer | string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/v1${urlPath}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    });
    req.on("error", reject);
    req.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: response.headers["retry-after"] ?? null,
          body: parsed,
        });
      });
    });
    req.end(body);
  });
}

/** The data of a 2xx answer; throws with the answer otherwise. */
async function call(base: string, key: string, method: string, urlPath: string, body?: unknown) {
  const answer = await request(base, key, method, urlPath, body === undefined ? undefined : JSON.stringify(body));
  if (answer.status >= 300)
    throw new Error(`${method} ${urlPath}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
  return answer.body.data;
}

function multipart(file: Buffer, filename: string, contentType: string, fields: Record<string, string>) {
  const boundary = `----memgw-bench-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Tallies first answers; a 429 or 503 is then retried after its Retry-After, as a client would, until it passes. */
class Tally {
  readonly statuses: Record<string, number> = {};
  serverErrors = 0;
  withoutRetryAfter = 0;
  requests = 0;
  private readonly started = performance.now();

  async send(attempt: () => Promise<Answer>): Promise<Answer> {
    let first = true;
    for (;;) {
      const answer = await attempt();
      if (first) {
        this.requests += 1;
        this.statuses[answer.status] = (this.statuses[answer.status] ?? 0) + 1;
        const limited = answer.status === 429 || answer.status === 503;
        if (limited && !answer.retryAfter) this.withoutRetryAfter += 1;
        if (answer.status >= 500 && !(answer.status === 503 && answer.retryAfter)) this.serverErrors += 1;
        first = false;
      }
      if (answer.status !== 429 && answer.status !== 503) return answer;
      await pause(Math.min(10, Number(answer.retryAfter) || 1) * 1000);
    }
  }

  figures(): TransferFigures {
    return {
      requests: this.requests,
      statuses: this.statuses,
      serverErrors: this.serverErrors,
      withoutRetryAfter: this.withoutRetryAfter,
      seconds: (performance.now() - this.started) / 1000,
    };
  }
}

async function documentSettled(base: string, key: string, id: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const document = await call(base, key, "GET", `/documents/${id}`);
    if (document.status === "ready" || document.status === "failed") return document;
    if (Date.now() > deadline) return document;
    await pause(100);
  }
}

/**
 * B's remembers and recalls, one after another, until `during` settles (at least `minimum` of each). A failed
 * request counts in `errors` (by status) and its time in the figures: a user waited for it too.
 */
async function otherOrganization(
  base: string,
  key: string,
  namespaceId: string,
  during: Promise<unknown>,
  minimum = 10,
): Promise<OtherFigures> {
  let done = false;
  void during.finally(() => (done = true)).catch(() => undefined);
  const remember: number[] = [];
  const recall: number[] = [];
  const errors: Record<string, number> = {};
  const timed = async (into: number[], urlPath: string, body: unknown) => {
    const started = performance.now();
    const answer = await request(base, key, "POST", urlPath, JSON.stringify(body));
    into.push(performance.now() - started);
    if (answer.status >= 300) errors[answer.status] = (errors[answer.status] ?? 0) + 1;
  };
  for (let i = 0; !done || remember.length < minimum; i++) {
    await timed(remember, "/remember", {
      namespace_id: namespaceId,
      content: `Isolation note ${i} at ${Date.now()}: the ferry to the island leaves at ${7 + (i % 12)} o'clock.`,
    });
    await timed(recall, "/recall", { namespace_id: namespaceId, query: `when does the ferry leave ${i}` });
  }
  return { remember: figures(remember), recall: figures(recall), errors };
}

/** A loopback HTTP server that takes every request and never answers it. */
async function hangingReceiver() {
  const sockets = new Set<net.Socket>();
  const server = http.createServer(() => undefined);
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: (n: number) => `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hang/${n}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function scannedPdf(pages: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const scan = await pdf.embedPng(
    fs.readFileSync(path.resolve(import.meta.dirname, "../tests/fixtures/documents/scan-text.png")),
  );
  for (let i = 0; i < pages; i++) pdf.addPage([612, 792]).drawImage(scan, { x: 6, y: 500, width: 600, height: 150 });
  return Buffer.from(await pdf.save());
}

export async function measureIsolation(options: {
  log: (line: string) => void;
  /** A PostgreSQL server with pgvector (a role that may create databases): the server gets a new database. */
  postgresUrl?: string;
}): Promise<IsolationResult> {
  const { log } = options;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-isolation-"));
  let database: ScratchDatabase | undefined;
  let server: RunningServer | undefined;
  const hanging = await hangingReceiver();
  const receiver = new WebhookReceiver();
  await receiver.listen();
  try {
    if (options.postgresUrl) database = await createScratchDatabase(options.postgresUrl);
    const store: Record<string, string> = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
    server = await startServer({
      ...store,
      PORT: process.env.BENCH_PORT || String(await freePort()),
      MEMGW_INIT_ORG_NAME: "Heavy user",
      MEMGW_INIT_USER_EMAIL: "bench@example.com",
      MEMGW_INIT_USER_PASSWORD: "benchmark password",
      MEMGW_INIT_API_KEY: KEY_A,
      MEMGW_BUILD: "never",
      API_RATE_LIMIT_PER_MINUTE: "0",
      // The receivers are plain http on loopback.
      ALLOW_PRIVATE_OUTBOUND: "true",
    });
    await embeddingsReady(server.base);
    const base = server.base;
    const cli = (args: string[]) =>
      JSON.parse(
        execFileSync(process.execPath, ["bin/memgw.mjs", ...args], {
          env: { ...process.env, ...store },
          encoding: "utf8",
        }),
      );
    const orgB = cli(["org", "create", "--name", "Quiet neighbour"]);
    const permissions = "NAMESPACE_READ,NAMESPACE_WRITE,NAMESPACE_MANAGE,WEBHOOK_MANAGE";
    const keyB = cli(["key", "create", "--org", orgB.id, "--name", "b", "--permissions", permissions]).secret;
    const nsA = (await call(base, KEY_A, "POST", "/namespaces", { name: "heavy" })).id;
    const nsB = (await call(base, keyB, "POST", "/namespaces", { name: "quiet" })).id;
    const upload = (key: string, namespaceId: string, file: Buffer, filename: string, type: string) => {
      const form = multipart(file, filename, type, { namespace_id: namespaceId });
      return request(base, key, "POST", "/documents", form.body, { "content-type": form.contentType });
    };

    // 1. Document bombs, one at a time: the server's memory (with any process it starts) above its start.
    const bombs: IsolationResult["bombs"] = [];
    const bombFiles: [string, () => Promise<Uint8Array>, string, string][] = [
      ["PDF, 16 images of 6000×6000 on one page", () => pdfImageBomb(), "images.pdf", "application/pdf"],
      ["DOCX, document.xml expanding to 1.2 GB", () => docxBomb(), "bomb.docx", DOCX],
      ["PDF, a content stream expanding to 1.5 GB", () => pdfContentStreamBomb(), "stream.pdf", "application/pdf"],
    ];
    for (const [name, make, filename, type] of bombFiles) {
      const file = Buffer.from(await make());
      const memory = rssGrowth(server.pid);
      const created = await upload(KEY_A, nsA, file, filename, type);
      if (created.status !== 202)
        throw new Error(`uploading ${name}: ${created.status} ${JSON.stringify(created.body)}`);
      const document = await documentSettled(base, KEY_A, created.body.data.id, 20 * 60_000);
      const peakGrowthMiB = memory.stop();
      bombs.push({ name, fileBytes: file.length, status: document.status, error: document.error, peakGrowthMiB });
      log(
        `  ${name} (${(file.length / 1024).toFixed(0)} KB): ${document.status} (${document.error}); ` +
          `memory +${peakGrowthMiB.toFixed(0)} MiB`,
      );
    }

    // 2. B's quiet figures.
    for (let i = 0; i < 5; i++) await call(base, keyB, "POST", "/recall", { namespace_id: nsB, query: "warm up" });
    const quiet = await otherOrganization(base, keyB, nsB, Promise.resolve(), QUIET_REQUESTS);
    log(`  B quiet: remember p95 ${quiet.remember.p95.toFixed(0)} ms, recall p95 ${quiet.recall.p95.toFixed(0)} ms`);

    // 3. A's storm of 10 MB uploads, all at once; B meanwhile.
    const uploadTally = new Tally();
    const files = Array.from({ length: UPLOADS }, (_, i) =>
      Buffer.from(largePdf(UPLOAD_MIB * 2 ** 20, `Upload ${i} of the storm.`)),
    );
    const storm = Promise.all(
      files.map((file, i) => uploadTally.send(() => upload(KEY_A, nsA, file, `storm-${i}.pdf`, "application/pdf"))),
    );
    const duringUploads = await otherOrganization(base, keyB, nsB, storm);
    await storm;
    const uploads = { ...uploadTally.figures(), sizeMiB: UPLOAD_MIB, other: duringUploads };
    log(
      `  ${UPLOADS} × ${UPLOAD_MIB} MB uploads: ${JSON.stringify(uploads.statuses)} in ` +
        `${uploads.seconds.toFixed(1)} s; B remember p95 ${duringUploads.remember.p95.toFixed(0)} ms, ` +
        `recall p95 ${duringUploads.recall.p95.toFixed(0)} ms, errors ${JSON.stringify(duringUploads.errors)}`,
    );

    // 4. A's downloads of a 50 MiB original, 10 at once while B works, then 20 at once for the memory they hold.
    const big = Buffer.from(largePdf(DOWNLOAD_MIB * 2 ** 20, "The big original."));
    const bigCreated = await upload(KEY_A, nsA, big, "big.pdf", "application/pdf");
    if (bigCreated.status !== 202) throw new Error(`uploading the 50 MiB file: ${bigCreated.status}`);
    const bigId = bigCreated.body.data.id;
    await documentSettled(base, KEY_A, bigId, 10 * 60_000);
    const digest = createHash("sha256").update(big).digest("hex");
    const download = () =>
      new Promise<Answer & { digest?: string }>((resolve, reject) => {
        const req = http.request(`${base}/api/v1/documents/${bigId}/content`, {
          headers: { authorization: `Bearer ${KEY_A}` },
        });
        req.on("error", reject);
        req.on("response", (response) => {
          const hash = createHash("sha256");
          const chunks: Buffer[] = [];
          const ok = response.statusCode === 200;
          response.on("data", (chunk: Buffer) => (ok ? hash.update(chunk) : chunks.push(chunk)));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              retryAfter: response.headers["retry-after"] ?? null,
              body: ok ? null : Buffer.concat(chunks).toString("utf8"),
              digest: ok ? hash.digest("hex") : undefined,
            }),
          );
        });
        req.end();
      });
    const downloadTally = new Tally();
    const downloading = Promise.all(Array.from({ length: DOWNLOADS }, () => downloadTally.send(download)));
    const duringDownloads = await otherOrganization(base, keyB, nsB, downloading);
    const fetched = await downloading;
    const downloads = {
      ...downloadTally.figures(),
      sizeMiB: DOWNLOAD_MIB,
      identical: fetched.filter((answer) => (answer as { digest?: string }).digest === digest).length,
      other: duringDownloads,
    };
    log(
      `  ${DOWNLOADS} × ${DOWNLOAD_MIB} MiB downloads: ${JSON.stringify(downloads.statuses)}, ` +
        `${downloads.identical} identical, ` +
        `${downloads.seconds.toFixed(1)} s; B remember p95 ${duringDownloads.remember.p95.toFixed(0)} ms, ` +
        `recall p95 ${duringDownloads.recall.p95.toFixed(0)} ms`,
    );
    const sameTally = new Tally();
    const sameMemory = rssGrowth(server.pid);
    await Promise.all(Array.from({ length: SAME_FILE_DOWNLOADS }, () => sameTally.send(download)));
    const sameFileDownloads = { ...sameTally.figures(), sizeMiB: DOWNLOAD_MIB, peakGrowthMiB: sameMemory.stop() };
    log(
      `  ${SAME_FILE_DOWNLOADS} downloads of one ${DOWNLOAD_MIB} MiB file at once: ` +
        `${JSON.stringify(sameFileDownloads.statuses)}, memory +${sameFileDownloads.peakGrowthMiB.toFixed(0)} MiB`,
    );

    // 5. B's small Markdown document while A's scanned pages queue for OCR.
    const scanned = await scannedPdf(OCR_PAGES);
    for (let i = 0; i < 3; i++) {
      const queued = await upload(KEY_A, nsA, scanned, `scan-${i}.pdf`, "application/pdf");
      if (queued.status !== 202) throw new Error(`uploading a scanned PDF: ${queued.status}`);
    }
    await pause(1_000);
    const smallStarted = performance.now();
    const small = await upload(
      keyB,
      nsB,
      Buffer.from("# Ferry\n\nThe ferry leaves at nine.\n"),
      "ferry.md",
      "text/markdown",
    );
    if (small.status !== 202) throw new Error(`uploading the small document: ${small.status}`);
    const smallDone = await documentSettled(base, keyB, small.body.data.id, 10 * 60_000);
    if (smallDone.status !== "ready")
      throw new Error(`the small document ended ${smallDone.status}: ${smallDone.error}`);
    const smallDocument = {
      otherQueued: `3 scanned PDFs of ${OCR_PAGES} pages`,
      readySeconds: (performance.now() - smallStarted) / 1000,
    };
    log(`  B's small document ready in ${smallDocument.readySeconds.toFixed(1)} s during A's OCR queue`);

    // 6. B's webhook deliveries while 16, then 32, of A's endpoints hang.
    const created = await call(base, keyB, "POST", "/webhooks", {
      url: receiver.url,
      event_types: ["memory.created"],
      namespace_ids: [nsB],
    });
    receiver.secret = created.secret;
    const webhooks: IsolationResult["webhooks"] = [];
    let endpointsA = 0;
    for (const count of [16, 32]) {
      while (endpointsA < count)
        await call(base, KEY_A, "POST", "/webhooks", {
          url: hanging.url(endpointsA++),
          event_types: ["memory.created"],
          namespace_ids: [nsA],
        });
      let stop = false;
      const aWrites = (async () => {
        for (let i = 0; !stop; i++) {
          await call(base, KEY_A, "POST", "/remember", {
            namespace_id: nsA,
            content: `A's event ${count}-${i} ${Date.now()}`,
          });
          await pause(500);
        }
      })();
      await pause(3_000);
      const answered = new Map<string, number>();
      for (let i = 0; i < WEBHOOK_WRITES; i++) {
        const memory = await call(base, keyB, "POST", "/remember", {
          namespace_id: nsB,
          content: `B's event ${count}-${i} at ${Date.now()}`,
        });
        answered.set(memory.id, performance.now());
        await pause(250);
      }
      await receiver
        .until(() => [...answered.keys()].every((id) => receiver.okByMemory.has(id)), 120_000, "B's deliveries")
        .catch((error) => log(`  ${(error as Error).message}`));
      stop = true;
      await aWrites;
      const latencies = [...answered]
        .filter(([id]) => receiver.okByMemory.has(id))
        .map(([id, at]) => receiver.okByMemory.get(id)!.at - at);
      const f = figures(latencies);
      webhooks.push({
        hanging: count,
        delivered: latencies.length,
        of: answered.size,
        p50: f.p50,
        p95: f.p95,
        max: Math.max(...latencies),
      });
      log(
        `  B's deliveries while ${count} of A's endpoints hang: ${latencies.length}/${answered.size}, ` +
          `p50 ${(f.p50 / 1000).toFixed(2)} s, p95 ${(f.p95 / 1000).toFixed(2)} s`,
      );
    }

    return {
      database: options.postgresUrl ? "PostgreSQL" : "embedded PGlite",
      bombs,
      quiet,
      uploads,
      downloads,
      sameFileDownloads,
      smallDocument,
      webhooks,
    };
  } finally {
    await server?.stop();
    await hanging.close();
    await receiver.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
