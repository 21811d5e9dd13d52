/** The lines of an NDJSON stream as parsed values, read as they arrive (never the whole body at once). */
export async function* parseNdjson<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = done ? "" : lines.pop()!;
      for (const line of lines) if (line.trim()) yield JSON.parse(line) as T;
      if (done) return;
    }
  } finally {
    // Stopping early (a `break` out of the loop) lets the server stop reading the namespace too.
    await reader.cancel().catch(() => {});
  }
}

/** What an NDJSON upload may be made of: values (each one line), or the text or bytes of lines already written. */
export type NdjsonSource =
  string | Uint8Array | ReadableStream<Uint8Array> | Iterable<unknown> | AsyncIterable<unknown>;

/**
 * An NDJSON source as a request body, and whether it can be sent again (a string, bytes or an array can; a
 * stream or an iterator is consumed by the first attempt).
 */
export function ndjsonBody(source: NdjsonSource): { make: () => BodyInit; replayable: boolean } {
  if (typeof source === "string") return { make: () => source, replayable: true };
  // A copy on an ArrayBuffer of its own: what fetch takes, whatever buffer the caller's bytes view.
  if (source instanceof Uint8Array) return { make: () => source.slice(), replayable: true };
  if (source instanceof ReadableStream) return { make: () => source, replayable: false };
  const encoder = new TextEncoder();
  const lines = async function* () {
    for await (const value of source as AsyncIterable<unknown>) {
      yield encoder.encode(typeof value === "string" ? value.replace(/\n?$/, "\n") : `${JSON.stringify(value)}\n`);
    }
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
