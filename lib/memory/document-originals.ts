// A document's original bytes as the rows of document_parts (prisma/migrations/20261129090000_document_parts),
// here beside the ingestion job since imports and exports read and write them too: at most PART_BYTES each,
// every part its own short statement outside any transaction. The embedded database runs one statement (or
// transaction) at a time for every organization: a 50 MB original written or read in one statement held it for
// seconds (another organization's remember waited 52 s behind 20 uploads), and read whole it was whole in memory
// (20 downloads of 50 MiB held 4.5 GB). Parts let others' statements in between; a download holds one at a time.
import { db } from "@/lib/db";

/** The largest part, in bytes: small enough to be one quick statement, large enough that 50 MB is 100 of them. */
export const PART_BYTES = 512 * 1024;

/** Where a document's parts are: its organization (every query carries it) and its id. */
export interface OriginalRef {
  orgId: string;
  documentId: string;
}

/**
 * Writes `source` (bytes, or chunks of any size as they arrive) as the parts of a document's original, each in
 * a statement of its own, replacing none: the document must have no parts yet. Answers the number of bytes
 * written. Whoever calls it deletes the parts (deleteOriginalParts) if it fails or what follows it does, before
 * the document row exists; a crash leaves them to the sweep (sweepAbandonedParts).
 */
export async function writeOriginalParts(
  ref: OriginalRef,
  source: Uint8Array | AsyncIterable<Uint8Array>,
): Promise<number> {
  const prisma = await db();
  let position = 0;
  let written = 0;
  const write = async (bytes: Uint8Array) => {
    await prisma.documentPart.create({
      data: { orgId: ref.orgId, documentId: ref.documentId, position, bytes: new Uint8Array(bytes) },
      select: { position: true },
    });
    position += 1;
    written += bytes.byteLength;
  };
  for await (const part of partsOf(source)) await write(part);
  return written;
}

/** `source` cut (and joined) into parts of PART_BYTES, the last one shorter. */
async function* partsOf(source: Uint8Array | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  if (source instanceof Uint8Array) {
    for (let start = 0; start < source.byteLength; start += PART_BYTES) {
      yield source.subarray(start, start + PART_BYTES);
    }
    return;
  }
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (pendingBytes + rest.byteLength >= PART_BYTES) {
      const take = PART_BYTES - pendingBytes;
      yield Buffer.concat([...pending, rest.subarray(0, take)]);
      pending = [];
      pendingBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.byteLength > 0) {
      pending.push(rest);
      pendingBytes += rest.byteLength;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending);
}

/** Deletes a document's parts (an upload that failed; an original replaced by a URL's new answer). */
export async function deleteOriginalParts(ref: OriginalRef): Promise<void> {
  const prisma = await db();
  await prisma.documentPart.deleteMany({ where: { orgId: ref.orgId, documentId: ref.documentId } });
}

/** Whether the document has an original stored. */
export async function hasOriginal(ref: OriginalRef): Promise<boolean> {
  const prisma = await db();
  const first = await prisma.documentPart.findFirst({
    where: { orgId: ref.orgId, documentId: ref.documentId, position: 0 },
    select: { position: true },
  });
  return first !== null;
}

async function readPart(ref: OriginalRef, position: number): Promise<Uint8Array | null> {
  const prisma = await db();
  const part = await prisma.documentPart.findFirst({
    where: { orgId: ref.orgId, documentId: ref.documentId, position },
    select: { bytes: true },
  });
  return part ? part.bytes : null;
}

/** A reader that takes nothing for this long has gone (or stalls on purpose): its stream ends, its turn is freed. */
export const ORIGINAL_STREAM_IDLE_MS = 30_000;

/**
 * The original as a stream that reads one part from the database each time its reader wants more (a slow
 * client holds one part, not the file). `onClose` runs once when it ends, fails, is cancelled, or its reader
 * takes nothing for `idleMs` (a HEAD whose body nobody reads, a client gone without cancelling, one that reads
 * a byte a minute): a download's transfer turn is never held by a reader that is not reading.
 */
export function originalStream(
  ref: OriginalRef,
  onClose: () => void = () => {},
  idleMs = ORIGINAL_STREAM_IDLE_MS,
): ReadableStream<Uint8Array> {
  let position = 0;
  let closed = false;
  let idle: NodeJS.Timeout | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    onClose();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // The first pull comes with the stream; each later one when the reader has taken what was queued.
        idle = setTimeout(() => stall(controller), idleMs).unref();
      },
      async pull(controller) {
        clearTimeout(idle);
        try {
          const part = await readPart(ref, position);
          position += 1;
          if (part === null) {
            close();
            controller.close();
          } else {
            controller.enqueue(part);
            if (!closed) idle = setTimeout(() => stall(controller), idleMs).unref();
          }
        } catch (error) {
          close();
          controller.error(error);
        }
      },
      cancel: close,
    },
    // One part read ahead at most: what waits in memory for a slow reader is bounded by the parts, not the file.
    new ByteLengthQueuingStrategy({ highWaterMark: PART_BYTES }),
  );

  function stall(controller: ReadableStreamDefaultController<Uint8Array>) {
    if (closed) return;
    close();
    controller.error(new Error(`the reader took nothing for ${idleMs / 1000} s`));
  }
}

/**
 * The whole original in one buffer, for the work that needs all of it at once (a document's extraction, an
 * export line), read part by part; null when the document has none.
 */
export async function originalBytes(ref: OriginalRef): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  for (let position = 0; ; position += 1) {
    const part = await readPart(ref, position);
    if (part === null) break;
    parts.push(part);
  }
  return parts.length ? new Uint8Array(Buffer.concat(parts)) : null;
}

/** How long an upload's parts may wait for their document: far longer than any upload takes to store. */
const ABANDONED_AFTER_MS = 60 * 60_000;

/**
 * Deletes the parts of uploads that never became a document (failed, or cut short by a crash) and are over an
 * hour old; an upload still under way (on this instance or another) is younger. Answers how many parts went.
 */
export async function sweepAbandonedParts(now = new Date()): Promise<number> {
  const prisma = await db();
  return prisma.$executeRaw`
    DELETE FROM document_parts p
    WHERE p.document_id IN (
      SELECT f.document_id FROM document_parts f
      WHERE f.position = 0 AND f.created_at < ${new Date(now.getTime() - ABANDONED_AFTER_MS)}
        AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = f.document_id AND d.org_id = f.org_id)
    )`;
}
