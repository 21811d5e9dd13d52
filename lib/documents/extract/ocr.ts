// OCR with tesseract.js: one worker for the whole process, created on first use, fed one image at a time.
// Its English model comes from the @tesseract.js-data/eng package on disk, never from the network.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { createWorker, OEM, type Worker } from "tesseract.js";
import { joinLines } from "./text";
import { DocumentUnreadableError } from "./types";

/**
 * The LSTM-only model (what tesseract.js itself downloads for OEM.LSTM_ONLY): 2.9 MB against 10.9 MB for
 * the directory that also holds the legacy engine's data, which OEM.LSTM_ONLY never reads.
 */
function languageDataDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json");
  return path.join(path.dirname(packageJson), "4.0.0_best_int");
}

// An idle worker holds ~100 MB; it is made again (about a second) when the next image comes.
const IDLE_SHUTDOWN_MS = 60_000;

let worker: Promise<Worker> | null = null;
let idleTimer: NodeJS.Timeout | undefined;
// recognize() calls run one after another in the worker anyway; chaining them here lets an image whose
// document ran out of time leave the line before it starts, and lets a stuck run be ended alone.
let queue: Promise<unknown> = Promise.resolve();

function startWorker(): Promise<Worker> {
  const langPath = languageDataDirectory();
  if (!fs.existsSync(path.join(langPath, "eng.traineddata.gz"))) {
    return Promise.reject(new DocumentUnreadableError("Text in images cannot be read: OCR data is not installed."));
  }
  return createWorker("eng", OEM.LSTM_ONLY, {
    langPath,
    gzip: true,
    // Read from langPath every time and write nothing: no cache directory to create, nothing fetched.
    cacheMethod: "none",
    logger: () => {},
    // Without it tesseract.js rethrows a failed job inside its message handler: an uncaught exception.
    errorHandler: () => {},
  });
}

async function stopWorker(): Promise<void> {
  clearTimeout(idleTimer);
  const stopping = worker;
  worker = null;
  if (stopping) await stopping.then((w) => w.terminate()).catch(() => {});
}

/** The worker thread, which keeps the process alive only while it has an image to read. */
function workerThread(w: Worker): { ref(): void; unref(): void } | undefined {
  return (w as unknown as { worker?: { ref(): void; unref(): void } }).worker ?? undefined;
}

/**
 * The paragraphs of text in an image (PNG, JPEG or BMP bytes), in reading order. Throws
 * DocumentUnreadableError when OCR fails, and the signal's reason when it is aborted (the worker, busy with
 * an image nobody waits for, is then ended).
 */
export function recognizeParagraphs(image: Uint8Array, signal: AbortSignal): Promise<string[]> {
  const job = queue.then(() => recognizeNow(image, signal));
  queue = job.catch(() => {});
  return job;
}

async function recognizeNow(image: Uint8Array, signal: AbortSignal): Promise<string[]> {
  signal.throwIfAborted();
  clearTimeout(idleTimer);
  worker ??= startWorker();
  const current = worker;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      if (worker === current) void stopWorker();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const w = await Promise.race([current, aborted]);
    workerThread(w)?.ref();
    const result = await Promise.race([
      w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: true, blocks: true }),
      aborted,
    ]);
    workerThread(w)?.unref();
    return paragraphsOf(result.data);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // A worker that failed once is not trusted with the next image.
    if (worker === current) await stopWorker();
    if (error instanceof DocumentUnreadableError) throw error;
    throw new DocumentUnreadableError("The text in the image could not be read (OCR failed).", { cause: error });
  } finally {
    signal.removeEventListener("abort", onAbort!);
    scheduleIdleShutdown();
  }
}

function scheduleIdleShutdown(): void {
  clearTimeout(idleTimer);
  if (!worker) return;
  idleTimer = setTimeout(() => void stopWorker(), IDLE_SHUTDOWN_MS);
  idleTimer.unref();
}

/** Frees the OCR worker (tests and shutdown). */
export async function closeOcr(): Promise<void> {
  await queue;
  await stopWorker();
}

interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface OcrLine {
  text: string;
  bbox: OcrBox;
}
interface OcrParagraph {
  text: string;
  confidence: number;
  lines: OcrLine[];
}
interface OcrPage {
  text: string;
  blocks: { paragraphs: OcrParagraph[] }[] | null;
}

// Below this (0-100) a "paragraph" is nearly always speckle, a photo's texture or a logo read as letters.
const MIN_PARAGRAPH_CONFIDENCE = 30;

/**
 * Tesseract's paragraphs, each split again where the gap between two lines is taller than a line: it often
 * keeps paragraphs set apart by spacing alone (no indent) together.
 */
function paragraphsOf(page: OcrPage): string[] {
  if (!page.blocks) return page.text.split(/\n\s*\n/).map((text) => joinLines(text.split("\n")));
  const paragraphs: string[] = [];
  for (const block of page.blocks) {
    for (const paragraph of block.paragraphs) {
      if (paragraph.confidence < MIN_PARAGRAPH_CONFIDENCE) continue;
      const heights = paragraph.lines.map((line) => line.bbox.y1 - line.bbox.y0).sort((a, b) => a - b);
      const lineHeight = heights[Math.floor(heights.length / 2)] ?? 0;
      let lines: string[] = [];
      paragraph.lines.forEach((line, index) => {
        const previous = paragraph.lines[index - 1];
        if (previous && line.bbox.y0 - previous.bbox.y1 > 0.9 * lineHeight) {
          paragraphs.push(joinLines(lines));
          lines = [];
        }
        lines.push(line.text);
      });
      paragraphs.push(joinLines(lines));
    }
  }
  return paragraphs.filter((text) => /[\p{L}\p{N}]/u.test(text));
}

/**
 * Raw pixels (as a PDF's image decodes to) as a PNG, the input tesseract.js reads without a canvas: grey,
 * RGB or RGBA bytes, or one bit per pixel, rows padded to whole bytes, 1 = white (pdf.js's 1-bit layout).
 */
export function encodePng(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, kind: PixelKind) {
  const { colorType, bitDepth, rowBytes } = PIXEL_LAYOUT[kind](width);
  const filtered = Buffer.alloc((rowBytes + 1) * height);
  for (let row = 0; row < height; row++) {
    // Filter type 0 (none) per row: the rows as they are; deflate does the compressing.
    filtered[row * (rowBytes + 1)] = 0;
    filtered.set(pixels.subarray(row * rowBytes, (row + 1) * rowBytes), row * (rowBytes + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(bitDepth, 8);
  header.writeUInt8(colorType, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", zlib.deflateSync(filtered, { level: 6 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export type PixelKind = "gray1" | "gray8" | "rgb8" | "rgba8";

const PIXEL_LAYOUT: Record<PixelKind, (width: number) => { colorType: number; bitDepth: number; rowBytes: number }> = {
  gray1: (width) => ({ colorType: 0, bitDepth: 1, rowBytes: Math.ceil(width / 8) }),
  gray8: (width) => ({ colorType: 0, bitDepth: 8, rowBytes: width }),
  rgb8: (width) => ({ colorType: 2, bitDepth: 8, rowBytes: width * 3 }),
  rgba8: (width) => ({ colorType: 6, bitDepth: 8, rowBytes: width * 4 }),
};

function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(zlib.crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}
