// An upload's bytes as they arrive, written to a temporary file instead of kept in memory (a 50 MB document,
// twenty at once, must not be a gigabyte of the server's memory), with what is learnt on the way: its size,
// sha256, whether it has a NUL byte, and its start and end to tell its type by.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { BusyError } from "@/lib/errors";
import type { SpooledContent } from "./uploaded-file";

/** How much of a file's start, and of its end, its sample keeps (a DOCX names its parts at its end). */
const SAMPLE_HEAD_BYTES = 1024 * 1024;
const SAMPLE_TAIL_BYTES = 256 * 1024;
/** Temporary files older than this are an upload a crash left behind. */
const ABANDONED_AFTER_MS = 60 * 60_000;

let swept = false;

/** The directory of this machine's spooled uploads (created, and cleared of abandoned files, at first use). */
async function spoolDir(): Promise<string> {
  const dir = path.join(os.tmpdir(), "memgw-uploads");
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  if (!swept) {
    swept = true;
    const cutoff = Date.now() - ABANDONED_AFTER_MS;
    for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
      const file = path.join(dir, name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (stat && stat.mtimeMs < cutoff) await fs.promises.rm(file, { force: true });
    }
  }
  return dir;
}

/**
 * Writes `source` to a new temporary file, refusing with `tooLarge()` (the file removed) once more than
 * `maxBytes` arrive. The caller removes the file when done with it (UploadedFile.discard).
 */
export async function spoolToFile(source: Readable, maxBytes: number, tooLarge: () => Error): Promise<SpooledContent> {
  const file = path.join(await spoolDir(), `${process.pid}-${randomBytes(12).toString("hex")}`);
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  // A disk that fails (full, gone) fails this upload alone: without a listener its "error" would end the server.
  // The listener also wakes a write waiting for the disk ("drain" never comes after an error).
  let diskError: Error | undefined;
  out.on("error", (error) => {
    diskError ??= error;
    out.emit("drain");
  });
  const diskFailed = () => {
    console.error("[memgw] spooling an upload to disk failed:", diskError);
    return new BusyError("The server could not store the upload just now; nothing was stored.", 30);
  };
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headBytes = 0;
  // The last chunks, only as many as the tail needs: joined once at the end (joined at every chunk, they were
  // 270 KB copied per 64 KB received).
  const tailChunks: Buffer[] = [];
  let tailBytes = 0;
  let size = 0;
  let hasNul = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      hash.update(chunk);
      if (!hasNul && chunk.includes(0)) hasNul = true;
      if (headBytes < SAMPLE_HEAD_BYTES) {
        const kept = chunk.subarray(0, SAMPLE_HEAD_BYTES - headBytes);
        head.push(kept);
        headBytes += kept.length;
      }
      tailChunks.push(chunk);
      tailBytes += chunk.length;
      while (tailBytes - tailChunks[0].length >= SAMPLE_TAIL_BYTES) tailBytes -= tailChunks.shift()!.length;
      // Backpressure: wait for the disk when it is behind, so memory holds at most a chunk or two.
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      if (diskError) throw diskFailed();
    }
    if (diskError) throw diskFailed();
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error || diskError ? reject(diskFailed()) : resolve())),
    );
  } catch (error) {
    out.destroy();
    await fs.promises.rm(file, { force: true });
    throw error;
  }
  const tail = Buffer.concat(tailChunks);
  const sample = sampleOf(Buffer.concat(head), tail.subarray(Math.max(0, tail.length - SAMPLE_TAIL_BYTES)), size);
  return { path: file, size, sha256: hash.digest("hex"), sample, hasNul };
}

/**
 * The file's start, with its end after it when the two do not overlap, each cut at a whole UTF-8 character:
 * a text file's sample is text too.
 */
function sampleOf(head: Buffer, tail: Buffer, size: number): Buffer {
  if (size <= head.length) return head;
  if (size <= head.length + tail.length) {
    return Buffer.concat([head, tail.subarray(tail.length - (size - head.length))]);
  }
  return Buffer.concat([head.subarray(0, wholeCharactersEnd(head)), tail.subarray(wholeCharactersStart(tail))]);
}

/** Where the last complete UTF-8 character of `bytes` ends (a character cut by the end is left out). */
function wholeCharactersEnd(bytes: Buffer): number {
  let start = bytes.length - 1;
  while (start > 0 && bytes.length - start < 4 && (bytes[start] & 0xc0) === 0x80) start -= 1;
  const lead = bytes[start];
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length > bytes.length ? start : bytes.length;
}

/** Where the first UTF-8 character that starts in `bytes` starts (continuation bytes skipped). */
function wholeCharactersStart(bytes: Buffer): number {
  let start = 0;
  while (start < 3 && start < bytes.length && (bytes[start] & 0xc0) === 0x80) start += 1;
  return start;
}
