import { API_HEADERS } from "./envelope";

/** What an operation returns to answer with a file as it is (a document's original) instead of the envelope. */
export class FileBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
    /** Offered as the name to save it under. */
    readonly filename: string,
  ) {}
}

/**
 * A file a user uploaded, answered so that no browser runs it on this origin: always a download
 * (`attachment`), its type never sniffed, and in a sandbox should it be opened anyway.
 */
export function fileResponse(file: FileBody, status: number, headers: Record<string, string>): Response {
  const fallbackName = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(Buffer.from(file.bytes), {
    status,
    headers: {
      ...API_HEADERS,
      ...headers,
      "content-type": file.contentType,
      "content-length": String(file.bytes.byteLength),
      "content-disposition":
        `attachment; filename="${fallbackName}"; ` + `filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'",
    },
  });
}
