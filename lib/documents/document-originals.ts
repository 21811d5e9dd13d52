// A document's original bytes as the rows of document_parts (prisma/migrations/20261129090000_document_parts),
// here beside the ingestion job since imports and exports read and write them too: at most PART_BYTES each,
// every part its own short statement outside any transaction. The embedded database runs one statement (or
// transaction) at a time for every organization: a 50 MB original written or read in one statement held it for
// seconds (another organization's remember waited 52 s behind 20 uploads), and read whole it was whole in memory
// (20 downloads of 50 MiB held 4.5 GB). Parts let others' statements in between; a download holds a few at a time.
// An original has generations (prisma/migrations/20261129141000_document_part_generations): a URL document's
// refresh writes the new answer beside the old one and switches the document to it (replaceOriginal), so a reader
// pinned to the generation it started with never mixes old and new parts.
import pLimit from "p-limit";
import { asBulkTransfer, db, queryColumnBytes, queryRows } from "@/lib/db";
import { ConflictError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/** The largest part, in bytes: small enough to be one quick statement, large enough that 50 MB is 100 of them. */
export const PART_BYTES = 512 * 1024;

/**
 * Parts read in one statement by a download or a whole read (1 MiB). On the embedded database another
 * organization's statement may wait for the one read running: with 2 MiB reads its recall p95 during 10
 * downloads of 50 MiB was 1.9–2.4× its quiet figure, with 1 MiB 1.5–1.6×, the downloads as fast. Much smaller,
 * and the statements' own cost grows.
 */
export const PARTS_PER_READ = 2;

/**
 * Reads of parts under way at once, every download and whole read together: the embedded database answers its
 * one session's statements in turn, so 20 downloads each with a read queued put another organization's recall
 * behind 20 reads; in turns, behind two at most. Measured in process, 20 downloads of 10 MiB on a loaded
 * machine: recall p95 3.9–4.5 s with every read at once, 0.67–0.79 s in turns of two (0.77 s quiet), the
 * downloads as fast (6 s). On PostgreSQL it leaves the pool's connections to the others.
 */
const partReads = pLimit(2);

/** Where a document's parts are: its organization (every query carries it) and its id. */
export interface OriginalRef {
  orgId: string;
  documentId: string;
}

/** One version of an original: the document's `partsGeneration` when it was read, and its size in bytes. */
export interface OriginalVersion extends OriginalRef {
  generation: number;
  size: number;
}

/** What a reader is told when the version it reads was replaced (a URL's refresh) or deleted meanwhile. */
export class OriginalReplacedError extends ConflictError {
  constructor(ref: OriginalRef) {
    super(`Document ${ref.documentId}'s original was replaced or deleted while it was read; read it again.`);
  }
}

/** An original whose stored parts do not add up to its document's size: never sent as if they did. */
export class OriginalSizeError extends Error {
  constructor(version: OriginalVersion) {
    super(`Document ${version.documentId}'s stored original does not have its ${version.size} bytes.`);
  }
}

/**
 * Writes `source` (bytes, or chunks of any size as they arrive) as the parts of generation `generation` (0, a new
 * document's) of a document's original, each in a statement of its own, replacing none: that generation must
 * have no parts yet. Answers the number of bytes written. Whoever calls it deletes the parts
 * (deleteOriginalParts) if it fails or what follows it does, before the document row exists; a crash leaves
 * them to the sweep (sweepAbandonedParts).
 */
export async function writeOriginalParts(
  ref: OriginalRef,
  source: Uint8Array | AsyncIterable<Uint8Array>,
  generation = 0,
): Promise<number> {
  let position = 0;
  let written = 0;
  const write = async (bytes: Uint8Array) => {
    // In binary format (queryRows sends bytes so): Prisma's bytea serializer writes hex a byte at a time in
    // JavaScript on the main thread (20 MiB: 26.7 s on the embedded database), and base64 text still had the
    // protocol writer walk every character.
    await asBulkTransfer(() =>
      queryRows(Prisma.sql`
        INSERT INTO document_parts (document_id, org_id, generation, position, bytes)
        VALUES (${ref.documentId}, ${ref.orgId}, ${generation}::int, ${position}::int, ${bytes})`),
    );
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

/** Deletes a document's parts, every generation of them (an upload that failed). */
export async function deleteOriginalParts(ref: OriginalRef): Promise<void> {
  const prisma = await db();
  await prisma.documentPart.deleteMany({ where: { orgId: ref.orgId, documentId: ref.documentId } });
}

/**
 * Replaces a document's original (a URL's new answer) without a moment where a reader could mix old and new
 * parts: claims a generation of its own, writes `bytes` as it, switches the document to it with its type and
 * size in one statement (only if it still has generation `current`), then deletes the older generations. A
 * reader of the old one fails with OriginalReplacedError from then on. Answers false, with nothing kept, when the
 * document changed generation (another refresh won) or was deleted meanwhile: its caller has no original to
 * go on with. A crash between the steps leaves a generation no document has, for the sweep.
 */
export async function replaceOriginal(
  ref: OriginalRef,
  current: number,
  bytes: Uint8Array,
  contentType: string,
): Promise<boolean> {
  // Taken in the statement that counts it, before any part: two refreshes of one document (a job run again
  // once its lease expired, the first still running) each write a generation no one else writes, where both
  // aiming at current + 1 interleaved their parts (and deleted each other's as "leftovers").
  const [claimed] = await queryRows<{ generation: number }>(Prisma.sql`
    UPDATE documents SET parts_generation_claimed = GREATEST(parts_generation_claimed, parts_generation) + 1
    WHERE id = ${ref.documentId} AND org_id = ${ref.orgId}
    RETURNING parts_generation_claimed AS generation`);
  if (!claimed) return false;
  const next = claimed.generation;
  const prisma = await db();
  try {
    await writeOriginalParts(ref, bytes, next);
  } catch (error) {
    await prisma.documentPart.deleteMany({ where: { orgId: ref.orgId, documentId: ref.documentId, generation: next } });
    throw error;
  }
  const { count } = await prisma.document.updateMany({
    where: { id: ref.documentId, orgId: ref.orgId, partsGeneration: current },
    data: { partsGeneration: next, contentType, byteSize: bytes.length },
  });
  // Won: every generation but this one goes (a refresh that lost keeps writing its own, and deletes it). Lost:
  // only this one, the winner's untouched.
  await prisma.documentPart.deleteMany({
    where: { orgId: ref.orgId, documentId: ref.documentId, generation: count ? { lt: next } : next },
  });
  return count > 0;
}

/** The version of a document's original that it has now, to read pinned to it. */
export function originalVersion(document: {
  id: string;
  orgId: string;
  partsGeneration: number;
  byteSize: number | null;
}): OriginalVersion {
  return {
    orgId: document.orgId,
    documentId: document.id,
    generation: document.partsGeneration,
    size: document.byteSize ?? 0,
  };
}

/** Whether the document has this generation of its original stored. */
export async function hasOriginal(ref: OriginalRef, generation: number): Promise<boolean> {
  const prisma = await db();
  const first = await prisma.documentPart.findFirst({
    where: { orgId: ref.orgId, documentId: ref.documentId, generation, position: 0 },
    select: { position: true },
  });
  return first !== null;
}

/** How many parts an original of `size` bytes has. */
const partCount = (size: number) => Math.ceil(size / PART_BYTES);

/**
 * Parts `from` up to PARTS_PER_READ of them (fewer at the end) of one version, in one statement, in order.
 * OriginalReplacedError when any is missing: the version was replaced or its document deleted meanwhile.
 */
async function readParts(version: OriginalVersion, from: number): Promise<Uint8Array[]> {
  const wanted = Math.min(PARTS_PER_READ, partCount(version.size) - from);
  if (wanted <= 0) return [];
  // Not through Prisma: its PGlite adapter's bytea parser turns hex into bytes a byte at a time in JavaScript on
  // the main thread, ~3 MB/s (20 MiB held the event loop ~6 s).
  const parts = await partReads(() =>
    asBulkTransfer(() =>
      queryColumnBytes(Prisma.sql`
    SELECT bytes FROM document_parts
    WHERE org_id = ${version.orgId} AND document_id = ${version.documentId}
      AND generation = ${version.generation}::int AND position >= ${from}::int AND position < ${from + wanted}::int
    ORDER BY position`),
    ),
  );
  if (parts.length !== wanted) throw new OriginalReplacedError(version);
  return parts;
}

/** A reader that takes nothing for this long has gone (or stalls on purpose): its stream ends, its turn is freed. */
export const ORIGINAL_STREAM_IDLE_MS = 30_000;

/**
 * One version of an original as a stream of its parts, read PARTS_PER_READ at a time (one statement) with the
 * next read started as soon as one arrives: at most two reads (2 MiB) wait in memory for a slow reader, never
 * the file. It fails with OriginalReplacedError if that version goes meanwhile (a URL's refresh replaced it, the
 * document was deleted): never a mix of two versions, never silently short. `onClose` runs once when its reader
 * has taken the last part and asks for more, when it fails, is cancelled, or its reader takes nothing for
 * `idleMs` (a HEAD whose body nobody reads, a client gone without cancelling, one that reads a byte a minute): a
 * download's transfer turn is held until it is read, and never by a reader that is not reading.
 */
export function originalStream(
  version: OriginalVersion,
  onClose: () => void = () => {},
  idleMs = ORIGINAL_STREAM_IDLE_MS,
): ReadableStream<Uint8Array> {
  let position = 0;
  let buffered: Uint8Array[] = [];
  let ahead: Promise<Uint8Array[]> | undefined;
  let closed = false;
  let sent = 0;
  let idle: NodeJS.Timeout | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(idle);
    onClose();
  };
  const nextRead = () => {
    const read = readParts(version, position);
    position += PARTS_PER_READ;
    // Awaited by the pull that wants it; until then a failure must not count as unhandled.
    read.catch(() => undefined);
    return read;
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        idle = setTimeout(() => stall(controller), idleMs).unref();
      },
      // Called only when the reader asks (no queue of the stream's own, highWaterMark 0): the parts waiting in
      // memory are `buffered` and the read ahead, and the last ask after the end is the reader's.
      async pull(controller) {
        clearTimeout(idle);
        try {
          if (buffered.length === 0) {
            buffered = await (ahead ?? nextRead());
            ahead = buffered.length > 0 ? nextRead() : undefined;
          }
          if (closed) return;
          const part = buffered.shift();
          // The size is the download's Content-Length, sent before the parts are read: a byte past it would be
          // read by the client as the start of the connection's next response (the document's content
          // answering a request it never made), and one short of it leaves the client waiting. Parts that
          // disagree with their document's size fail the stream, which cuts the connection.
          if (part === undefined ? sent !== version.size : sent + part.byteLength > version.size) {
            throw new OriginalSizeError(version);
          }
          if (part === undefined) {
            close();
            controller.close();
            return;
          }
          sent += part.byteLength;
          controller.enqueue(part);
          idle = setTimeout(() => stall(controller), idleMs).unref();
        } catch (error) {
          close();
          controller.error(error);
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );

  function stall(controller: ReadableStreamDefaultController<Uint8Array>) {
    if (closed) return;
    close();
    controller.error(new Error(`the reader took nothing for ${idleMs / 1000} s`));
  }
}

/**
 * One version of an original whole in one buffer, for the work that needs all of it at once (a document's
 * extraction, an export line), read PARTS_PER_READ parts a statement; null when it has no parts (a URL not
 * fetched yet). OriginalReplacedError if it goes while it is read.
 */
export async function originalBytes(version: OriginalVersion): Promise<Uint8Array | null> {
  if (!(await hasOriginal(version, version.generation))) return null;
  const parts: Uint8Array[] = [];
  for (let position = 0; position < partCount(version.size);) {
    const read = await readParts(version, position);
    parts.push(...read);
    position += read.length;
  }
  return new Uint8Array(Buffer.concat(parts));
}

/** How long an upload's parts may wait for their document: far longer than any upload takes to store. */
const ABANDONED_AFTER_MS = 60 * 60_000;

/**
 * Deletes the parts that are no document's original and are over an hour old: uploads that never became a
 * document (failed, or cut short by a crash) and generations a crashed refresh left (its new one never switched
 * to, or the old one not deleted). An upload or refresh still under way (on this instance or another) is
 * younger. Answers how many parts went.
 */
export async function sweepAbandonedParts(now = new Date()): Promise<number> {
  const prisma = await db();
  return prisma.$executeRaw`
    DELETE FROM document_parts p
    USING (
      SELECT f.document_id, f.generation FROM document_parts f
      WHERE f.position = 0 AND f.created_at < ${new Date(now.getTime() - ABANDONED_AFTER_MS)}
        AND NOT EXISTS (
          SELECT 1 FROM documents d
          WHERE d.id = f.document_id AND d.org_id = f.org_id AND d.parts_generation = f.generation
        )
    ) abandoned
    WHERE p.document_id = abandoned.document_id AND p.generation = abandoned.generation`;
}
