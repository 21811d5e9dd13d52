import { InvalidError, PayloadTooLargeError } from "@/lib/errors";
import { bodyCutOff, requestBody } from "./request-body";

/** The largest JSON body accepted, in bytes. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The request's JSON object body: 400 for a wrong content type, malformed JSON or a non-object, 413 past the limit. */
export async function readJsonBody(
  request: Request,
  maxBytes = MAX_BODY_BYTES,
  tooLargeError: () => Error = tooLarge,
): Promise<unknown> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new InvalidError("Send the body as JSON with `Content-Type: application/json`.");
  }
  const text = (await readBodyBytes(request, maxBytes, tooLargeError)).toString("utf8");
  if (!text.trim()) throw new InvalidError("The request body is empty; send a JSON object.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidError(`Malformed JSON body: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidError("The request body must be a JSON object.");
  }
  return value;
}

/** The request's body as text, 413 PAYLOAD_TOO_LARGE past MAX_BODY_BYTES (declared or as it arrives). */
export async function readBodyText(request: Request): Promise<string> {
  return (await readBodyBytes(request, MAX_BODY_BYTES, tooLarge)).toString("utf8");
}

/**
 * The request's body, refused with `tooLarge()` past `maxBytes`: at once when its declared length says so,
 * otherwise as soon as what arrives passes it (a body without a length is never read whole first). 400 when
 * the client goes away before sending it whole.
 */
export async function readBodyBytes(request: Request, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const body = requestBody(request);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) break;
      chunks.push(chunk);
    }
  } catch {
    // The stream failed: the client went away (or its connection broke) before the body's end.
    throw bodyCutOff();
  }
  // Leaving the loop early destroyed the stream: nothing more of it is read.
  if (size > maxBytes) throw tooLarge();
  return Buffer.concat(chunks);
}

function tooLarge() {
  return new PayloadTooLargeError(`The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}
