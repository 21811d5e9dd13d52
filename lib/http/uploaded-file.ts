import { createHash } from "node:crypto";
import fs from "node:fs";

/** What an upload spooled to a temporary file (lib/http/spool.ts) knows of its content without reading it again. */
export interface SpooledContent {
  path: string;
  size: number;
  sha256: string;
  /** Its start and its end (see spool.ts), enough to tell its type by. */
  sample: Buffer;
  /** Whether a NUL byte is anywhere in it (no text file has one). */
  hasNul: boolean;
}

/**
 * Read from a spooled file this much at a time: one part of a document's original
 * (lib/documents/document-originals).
 */
const READ_BYTES = 512 * 1024;

/**
 * A file sent as a multipart/form-data part (or the console's upload): either bytes in memory or, for a
 * streamed upload, a temporary file never read whole. Its content is not an enumerable property, so what
 * fingerprints a request for its Idempotency-Key (canonical JSON) reads the file's name, type, size and
 * sha256, never the content.
 */
export class UploadedFile {
  readonly name: string | null;
  readonly type: string | null;
  readonly size: number;
  readonly sha256: string;
  declare private readonly bytes: Buffer | undefined;
  declare private readonly spooled: SpooledContent | undefined;

  constructor(content: Buffer | SpooledContent, name: string | null, type: string | null) {
    this.name = name;
    this.type = type;
    const spooled = Buffer.isBuffer(content) ? undefined : content;
    this.size = spooled ? spooled.size : (content as Buffer).length;
    this.sha256 = spooled
      ? spooled.sha256
      : createHash("sha256")
          .update(content as Buffer)
          .digest("hex");
    Object.defineProperty(this, "bytes", { value: spooled ? undefined : content, enumerable: false });
    Object.defineProperty(this, "spooled", { value: spooled, enumerable: false });
  }

  /** Enough of the content to tell its type by: all of it when in memory, its start and end when spooled. */
  get sample(): Buffer {
    return this.spooled ? this.spooled.sample : this.bytes!;
  }

  /** Whether a NUL byte is anywhere in it. */
  get hasNul(): boolean {
    return this.spooled ? this.spooled.hasNul : this.bytes!.includes(0);
  }

  /** The content: the bytes, or a spooled file's chunks read as they are wanted. */
  content(): Uint8Array | AsyncIterable<Uint8Array> {
    if (!this.spooled) return this.bytes!;
    return fs.createReadStream(this.spooled.path, { highWaterMark: READ_BYTES });
  }

  /** Removes a spooled file's temporary file (nothing for bytes in memory); safe to call more than once. */
  async discard(): Promise<void> {
    if (this.spooled) await fs.promises.rm(this.spooled.path, { force: true });
  }
}

/** Removes the temporary files of the uploads in a parsed body (what the request was done with). */
export async function discardUploads(body: unknown): Promise<void> {
  if (typeof body !== "object" || body === null) return;
  await Promise.all(Object.values(body).map((value) => (value instanceof UploadedFile ? value.discard() : undefined)));
}
