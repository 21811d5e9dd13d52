import { InvalidError, PayloadTooLargeError } from "@/lib/errors";

/** Newline-delimited JSON: one JSON value per line (https://github.com/ndjson/ndjson-spec). */
export const NDJSON = "application/x-ndjson";

/**
 * An operation's result sent as NDJSON instead of the JSON envelope: one line per item, produced as the
 * client reads them, so a result of any size never sits whole in memory.
 */
export class ItemStream<Item = unknown> {
  constructor(
    readonly items: AsyncIterable<Item>,
    /** Offered to the client as the name to save it under (`Content-Disposition: attachment`). */
    readonly filename?: string,
  ) {}
}

/**
 * An NDJSON response of `items`. The first item is produced before the response is made, so a failure
 * before the first byte (a namespace not found, a database error) is thrown to the caller, which answers
 * it in the envelope; a failure after it aborts the transfer (the client sees an incomplete response,
 * never a truncated one that looks whole). The client's backpressure paces the producer: one item per read.
 */
export async function ndjsonResponse(
  items: AsyncIterable<unknown>,
  init: { status: number; headers: Record<string, string>; filename?: string },
): Promise<Response> {
  const iterator = items[Symbol.asyncIterator]();
  const first = await iterator.next();
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown> | undefined = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<unknown>;
      try {
        next = pending ?? (await iterator.next());
      } catch (error) {
        // Too late for the envelope: the status line is sent. The client sees the transfer cut off.
        console.error("[memgw] a streamed response failed after its first line:", error);
        throw error;
      }
      pending = undefined;
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(JSON.stringify(next.value) + "\n"));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const headers: Record<string, string> = { ...init.headers, "content-type": `${NDJSON}; charset=utf-8` };
  if (init.filename) headers["content-disposition"] = `attachment; filename="${init.filename}"`;
  return new Response(body, { status: init.status, headers });
}

/** How much an NDJSON body may hold. */
export interface NdjsonLimits {
  maxBytes: number;
  maxLines: number;
  /** The longest line, in characters: a body without newlines is not held whole either. */
  maxLineChars: number;
}

export interface NdjsonLine {
  /** The line's number in the body, from 1 (blank lines counted): what an error names. */
  number: number;
  text: string;
}

/**
 * The lines of an NDJSON body as it arrives, blank ones skipped: 413 PAYLOAD_TOO_LARGE past `maxBytes`,
 * `maxLines` or `maxLineChars` (read no further), 400 for bytes that are not UTF-8. Only one line is held
 * at a time.
 */
export async function* ndjsonLines(
  source: AsyncIterable<Uint8Array>,
  limits: NdjsonLimits,
): AsyncGenerator<NdjsonLine> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let number = 0;
  let partial = "";
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new InvalidError(`Line ${number + 1} is not valid UTF-8.`);
    }
  };
  const line = (text: string): NdjsonLine => {
    number++;
    if (number > limits.maxLines) throw new PayloadTooLargeError(`The body has more than ${limits.maxLines} lines.`);
    return { number, text: text.replace(/\r$/, "") };
  };
  for await (const chunk of source) {
    bytes += chunk.byteLength;
    if (bytes > limits.maxBytes) throw new PayloadTooLargeError(`The body is larger than ${limits.maxBytes} bytes.`);
    partial += decode(chunk);
    let newline: number;
    while ((newline = partial.indexOf("\n")) !== -1) {
      const complete = line(partial.slice(0, newline));
      partial = partial.slice(newline + 1);
      if (complete.text.trim()) yield complete;
    }
    if (partial.length > limits.maxLineChars) {
      throw new PayloadTooLargeError(`Line ${number + 1} is longer than ${limits.maxLineChars} characters.`);
    }
  }
  partial += decode();
  if (partial.trim()) yield line(partial);
}

/** The body of an NDJSON request: 400 unless it says `Content-Type: application/x-ndjson`. */
export function ndjsonRequestBody(request: Request): AsyncIterable<Uint8Array> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/(x-ndjson|jsonl)\b/i.test(contentType)) {
    throw new InvalidError(`Send the body as NDJSON with \`Content-Type: ${NDJSON}\`.`);
  }
  return streamChunks(request.body);
}

async function* streamChunks(body: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    // Stopped early (a bad line, a limit): the rest of the body is not wanted.
    await reader.cancel().catch(() => undefined);
  }
}
