import { API_HEADERS } from "./envelope";

/**
 * The body's length for the production server (scripts/http-server.mjs, its BODY_LENGTH_HEADER), which sends
 * it as Content-Length: Next drops a route's own Content-Length and streams the body chunked.
 */
export const BODY_LENGTH_HEADER = "x-memgw-content-length";

/**
 * What an operation returns to answer with a file as it is (a document's original) instead of the envelope:
 * its bytes, or a stream of them of a known length (read as the client takes them).
 */
export class FileBody {
  constructor(
    readonly content: Uint8Array | { stream: ReadableStream<Uint8Array>; size: number },
    readonly contentType: string,
    /** Offered as the name to save it under. */
    readonly filename: string,
  ) {}

  get size(): number {
    return this.content instanceof Uint8Array ? this.content.byteLength : this.content.size;
  }

  /** Lets go of a stream that will not be read (its turn and its reads end). */
  async discard(): Promise<void> {
    if (!(this.content instanceof Uint8Array)) await this.content.stream.cancel();
  }
}

/**
 * A file a user uploaded, answered so that no browser runs it on this origin: always a download
 * (`attachment`), its type never sniffed, and in a sandbox should it be opened anyway. Its exact bytes with their
 * Content-Length, which `headers` keep from being compressed on the way (`no-transform` in their cache-control,
 * as API_HEADERS has it): a client checks the size, a resumed download counts bytes of the original.
 */
export function fileResponse(file: FileBody, status: number, headers: Record<string, string>): Response {
  const fallbackName = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const body = file.content instanceof Uint8Array ? Buffer.from(file.content) : file.content.stream;
  return new Response(body, {
    status,
    headers: {
      ...API_HEADERS,
      ...headers,
      "content-type": file.contentType,
      "content-length": String(file.size),
      [BODY_LENGTH_HEADER]: String(file.size),
      "content-disposition":
        `attachment; filename="${fallbackName}"; ` + `filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
    },
  });
}
