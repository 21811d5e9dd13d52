// Documents processed while a client recalls, over HTTP against the production build (`npm start`): one
// namespace holds 2,000 SciFact abstracts that a client recalls from, one query after another; a 100-page
// text PDF, then scanned pages (images read by OCR), are added to another namespace of the same organization.
// Recall latency is measured idle, then while each is processed; throughput is pages per second from the
// document's creation to the end of its processing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startServer } from "../tests/helpers/server";
import { apiCaller, describeFigures, embeddingsReady, type RecallFigures } from "./lib/api-client";
import { RECALLED_MEMORIES, recallingClient } from "./lib/recalling-client";
import { loadDataset } from "./lib/beir";
import { renderPdf } from "./lib/render-documents";

export interface IngestionFigures {
  documents: number;
  pages: number;
  seconds: number;
  pagesPerSecond: number;
  recall: RecallFigures;
}

export interface DocumentIngestionResult {
  memories: number;
  idle: RecallFigures;
  pdf: IngestionFigures;
  ocr: IngestionFigures;
}

const PDF_PAGES = 100;
const OCR_IMAGES = 8;
const SCANNED_PAGE = path.resolve(import.meta.dirname, "../tests/fixtures/documents/scan-text.png");

export async function measureDocumentIngestion(options: {
  datasetsDir: string;
  log: (line: string) => void;
}): Promise<DocumentIngestionResult> {
  const scifact = loadDataset(options.datasetsDir, "scifact");
  // Abstracts the recalled namespace does not hold, a page or more each.
  const rendered = await renderPdf(scifact.docs.slice(RECALLED_MEMORIES, RECALLED_MEMORIES + PDF_PAGES));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-bench-documents-"));
  const apiKey = "mgw_benchmarkDocumentsKey000000000000000000";
  const server = await startServer({
    DATA_DIR: dataDir,
    PORT: process.env.BENCH_PORT || String(await freePort()),
    MEMGW_INIT_ORG_NAME: "Research lab",
    MEMGW_INIT_USER_EMAIL: "bench@example.com",
    MEMGW_INIT_USER_PASSWORD: "benchmark password",
    MEMGW_INIT_API_KEY: apiKey,
  });
  try {
    const call = apiCaller(server.base, apiKey);
    await embeddingsReady(server.base);
    const client = await recallingClient(call, scifact, options.log);
    const handbooks = await call("POST", "/namespaces", { name: "handbooks" });

    /** Adds documents, then recalls one query after another until every one is processed. */
    const whileProcessing = async (bodies: Record<string, unknown>[]): Promise<IngestionFigures> => {
      const ids: string[] = [];
      for (const body of bodies)
        ids.push((await call("POST", "/documents", { namespace_id: handbooks.id, ...body })).id);
      const { done, recall } = await client.whileWorking(async () => {
        const documents = await Promise.all(ids.map((id) => call("GET", `/documents/${id}`)));
        const failed = documents.find((d) => d.status === "failed");
        if (failed) throw new Error(`document failed: ${failed.error}`);
        return documents.every((d) => d.status === "ready") ? documents : undefined;
      });
      const first = Math.min(...done.map((d) => Date.parse(d.created_at)));
      const last = Math.max(...done.map((d) => Date.parse(d.processed_at)));
      const pages = done.reduce((sum, d) => sum + (d.pages ?? 0), 0);
      const seconds = (last - first) / 1000;
      return { documents: ids.length, pages, seconds, pagesPerSecond: pages / seconds, recall };
    };
    const pdf = await whileProcessing([
      {
        content: Buffer.from(rendered.bytes).toString("base64"),
        content_encoding: "base64",
        content_type: "application/pdf",
        title: "SciFact abstracts",
      },
    ]);
    options.log(
      `  text PDF, ${pdf.pages} pages: ${pdf.seconds.toFixed(1)} s (${pdf.pagesPerSecond.toFixed(1)} pages/s); ` +
        `recall meanwhile: ${describeFigures(pdf.recall)}`,
    );
    const scan = fs.readFileSync(SCANNED_PAGE).toString("base64");
    const ocr = await whileProcessing(
      Array.from({ length: OCR_IMAGES }, (_, i) => ({
        content: scan,
        content_encoding: "base64",
        content_type: "image/png",
        title: `Scanned page ${i + 1}`,
      })),
    );
    options.log(
      `  scanned pages (OCR), ${ocr.pages}: ${ocr.seconds.toFixed(1)} s (${ocr.pagesPerSecond.toFixed(2)} pages/s); ` +
        `recall meanwhile: ${describeFigures(ocr.recall)}`,
    );
    return { memories: client.memories, idle: client.idle, pdf, ocr };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
