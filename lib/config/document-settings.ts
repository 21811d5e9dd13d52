// The settings of documents and of transfers (uploads and downloads): their size and page limits, the workers
// and memory that read them, the turns that bound them per organization. Part of SETTINGS (./settings.ts).
import { type SettingDefinition, wholeNumber } from "./kinds";

export const DOCUMENT_SETTINGS = {
  DOCUMENT_MAX_BYTES: wholeNumber({
    fallback: 50 * 1024 * 1024,
    min: 1024,
    unit: "bytes",
    description:
      "largest document `POST /documents` takes (an upload, a fetched URL or inline content); larger is " +
      "refused with 413",
  }),
  // Two: the main thread moves every transfer's bytes (the spool, the parts, the sockets), and with four of one
  // organization's at once another organization's remember p95 was 3.2–3.6× its quiet figure; with two, ≤ 2.4×
  // (BENCH_ONLY=isolation). The storm's client is told to come back later more often: 20 uploads of 10 MB at once
  // took 24 s instead of 14 with the bench waiting out each Retry-After.
  TRANSFERS_PER_ORGANIZATION: wholeNumber({
    fallback: 2,
    min: 1,
    unit: "transfers",
    description:
      "document uploads and downloads (`POST /documents`, a document's original) one organization may have under " +
      "way at once per instance; as many more wait up to TRANSFER_WAIT_SECONDS for a turn, and the rest are " +
      "refused with 429 and `Retry-After`",
  }),
  TRANSFERS_MAX: wholeNumber({
    fallback: 16,
    min: 1,
    unit: "transfers",
    description:
      "document uploads and downloads under way at once per instance, every organization together; past it a " +
      "transfer waits its turn (first come, first served) up to TRANSFER_WAIT_SECONDS, then is refused with 503 " +
      "and `Retry-After`",
  }),
  TRANSFER_WAIT_SECONDS: wholeNumber({
    fallback: 5,
    min: 0,
    max: 60,
    unit: "seconds",
    description: "how long an upload or download may wait for a turn (see TRANSFERS_MAX) before it is refused",
  }),
  DOCUMENT_MAX_PAGES: wholeNumber({
    fallback: 2000,
    min: 1,
    unit: "pages",
    description: "pages of a PDF a document may have; more fails its processing with the reason",
  }),
  DOCUMENT_MAX_OCR_PAGES: wholeNumber({
    fallback: 100,
    min: 0,
    unit: "pages",
    description: "scanned pages (no text layer) of one document read by OCR; more fails its processing",
  }),
  DOCUMENT_WORKERS: wholeNumber({
    fallback: 2,
    min: 1,
    max: 64,
    unit: "workers",
    description: "documents this process reads at once (each on a thread of its own; OCR takes a core while it runs)",
  }),
  DOCUMENT_WORKERS_PER_ORG: wholeNumber({
    fallback: 1,
    min: 1,
    max: 64,
    unit: "documents",
    description:
      "documents of one organization read at once, across every instance. Below one instance's " +
      "`DOCUMENT_WORKERS`, another organization's document never waits behind one organization's queue " +
      "(organizations with as many running take turns); at or above it (a server of one organization, or " +
      "several instances), the start says so",
  }),
  DOCUMENT_FETCH_TIMEOUT_SECONDS: wholeNumber({
    fallback: 30,
    min: 1,
    max: 600,
    unit: "seconds",
    description: "how long fetching a document's URL may take, redirects included",
  }),
  DOCUMENT_EXTRACTION_MEMORY_MB: wholeNumber({
    fallback: 768,
    min: 256,
    unit: "MB",
    description:
      "memory one document's reading may use: its process (heap, decoded images, expanded streams, OCR) is " +
      "stopped past it and the document fails with the reason. The server's memory stays within its own " +
      "plus this times `DOCUMENT_EXTRACTION_CONCURRENCY`",
  }),
  DOCUMENT_EXTRACTION_CONCURRENCY: wholeNumber({
    fallback: 2,
    min: 1,
    max: 64,
    unit: "documents",
    description:
      "documents read at the same time by one server process; more wait their turn (each reading may use " +
      "`DOCUMENT_EXTRACTION_MEMORY_MB`). At least `DOCUMENT_WORKERS` (fewer is refused at start), so no " +
      "worker's document waits for another's reading",
  }),
} satisfies Record<string, SettingDefinition<unknown>>;
