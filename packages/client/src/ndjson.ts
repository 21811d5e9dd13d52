import { TimeoutError } from "./errors.ts";

/** How a streamed read stops early: the caller's signal, and the longest wait for the next bytes. */
export interface StreamLimits {
  signal?: AbortSignal;
  idleTimeoutMs: number;
}

/**
 * The lines of an NDJSON stream as parsed values, read as they arrive (never the whole body at once). Only
 * `\n` ends a line: U+2028 and U+2029 may stand unescaped inside a JSON string.
 */
export async function* parseNdjson<T>(body: ReadableStream<Uint8Array>, limits: StreamLimits): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // The pieces of the line being read: a line of many chunks (a document's original) is joined once, when it
  // ends, rather than searched again with every chunk.
  let partial: string[] = [];
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, limits);
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        partial.push(text.slice(start, end));
        const line = partial.join("");
        partial = [];
        start = end + 1;
        if (line.trim()) yield JSON.parse(line) as T;
      }
      partial.push(text.slice(start));
      if (done) {
        const last = partial.join("");
        if (last.trim()) yield JSON.parse(last) as T;
        return;
      }
    }
  } finally {
    // Stopping early (a `break` out of the loop, an abort) ends the transfer: the server stops reading too.
    await reader.cancel().catch(() => {});
  }
}

/** The next chunk, unless the caller aborts or no byte comes within the idle timeout. */
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  { signal, idleTimeoutMs }: StreamLimits,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const stop = (reason: unknown) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      reject(reason);
    };
    const aborted = () => stop(signal!.reason);
    const timer = setTimeout(
      () => stop(new TimeoutError(`No data for ${idleTimeoutMs} ms.`, { status: null, code: "TIMEOUT" })),
      idleTimeoutMs,
    );
    signal?.addEventListener("abort", aborted, { once: true });
    reader.read().then((result) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
      resolve(result);
    }, stop);
  });
}

/** What an NDJSON upload may be made of: values (each one line), or the text or bytes of lines already written. */
export type NdjsonSource =
  string | Uint8Array | ReadableStream<Uint8Array> | Iterable<unknown> | AsyncIterable<unknown>;

const asLine = (value: unknown) =>
  typeof value === "string" ? value.replace(/\n?$/, "\n") : `${JSON.stringify(value)}\n`;

/**
 * An NDJSON source as a request body, and whether it can be sent again: text, bytes or an array can (an array
 * is already in memory, so its lines are written out once); a stream or an iterator is consumed by the first
 * attempt.
 */
export function ndjsonBody(source: NdjsonSource): { make: () => BodyInit; replayable: boolean } {
  if (typeof source === "string") return { make: () => source, replayable: true };
  // A copy on an ArrayBuffer of its own: what fetch takes, whatever buffer the caller's bytes view.
  if (source instanceof Uint8Array) return { make: () => source.slice(), replayable: true };
  if (Array.isArray(source)) {
    const text = source.map(asLine).join("");
    return { make: () => text, replayable: true };
  }
  if (source instanceof ReadableStream) return { make: () => source, replayable: false };
  const encoder = new TextEncoder();
  const lines = async function* () {
    for await (const value of source as AsyncIterable<unknown>) yield encoder.encode(asLine(value));
  };
  return {
    make: () => {
      const iterator = lines();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { done, value } = await iterator.next();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        async cancel() {
          await iterator.return(undefined);
        },
      });
    },
    replayable: false,
  };
}
