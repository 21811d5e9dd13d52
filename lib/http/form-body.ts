import { Readable } from "node:stream";
import busboy from "busboy";
import { InvalidError, PayloadTooLargeError } from "@/lib/errors";
import { discardUploads, UploadedFile } from "./uploaded-file";
import { readJsonBody } from "./body";
import { bodyCutOff, requestBody } from "./request-body";
import { spoolToFile } from "./spool";

/** Room for a multipart body's boundaries, part headers and text fields besides its file. */
const FORM_OVERHEAD_BYTES = 256 * 1024;
/** A form's text fields (a title, scopes, metadata) are short. */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_PARTS = 32;

/** An operation that takes a file: how large, and which text fields of a form carry JSON (scopes, metadata). */
export interface UploadRules {
  maxFileBytes: () => number;
  jsonFields: readonly string[];
}

/**
 * The body of an operation that takes a file: a multipart/form-data form (its file part as an UploadedFile
 * spooled to a temporary file as it arrives, never whole in memory; its JSON fields parsed, every other field
 * a string) or a JSON object, whose base64 content may be as large as the file limit allows. 413 past the
 * limit, as declared or as it arrives; 400 for a malformed form. The caller removes the spooled file once the
 * request is answered (discardUploads).
 */
export async function readUploadBody(request: Request, rules: UploadRules): Promise<unknown> {
  const maxFileBytes = rules.maxFileBytes();
  const tooLarge = () => new PayloadTooLargeError(`The document is larger than ${maxFileBytes} bytes.`);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    // Base64 is 4/3 of the bytes it carries.
    return readJsonBody(request, Math.ceil((maxFileBytes * 4) / 3) + FORM_OVERHEAD_BYTES, () => tooLarge());
  }
  if (Number(request.headers.get("content-length")) > maxFileBytes + FORM_OVERHEAD_BYTES) throw tooLarge();
  const body: Record<string, unknown> = {};
  try {
    await parseForm(request, contentType, body, rules, maxFileBytes, tooLarge);
  } catch (error) {
    await discardUploads(body);
    throw error;
  }
  return body;
}

function parseForm(
  request: Request,
  contentType: string,
  body: Record<string, unknown>,
  rules: UploadRules,
  maxFileBytes: number,
  tooLarge: () => Error,
): Promise<void> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      limits: { fieldSize: MAX_FIELD_BYTES, parts: MAX_PARTS, fileSize: maxFileBytes + 1 },
    });
  } catch {
    return Promise.reject(new InvalidError("Malformed multipart/form-data body: it has no boundary."));
  }
  return new Promise<void>((resolve, reject) => {
    const spooling: Promise<void>[] = [];
    const files: Readable[] = [];
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(parser);
      source.destroy();
      // A file part being written ends now (no more of it will come), its temporary file removed.
      for (const file of files) file.destroy(error instanceof Error ? error : undefined);
      // What was spooled is removed by the caller; files still being written end with the stream destroyed.
      void Promise.allSettled(spooling).then(() => reject(error));
    };
    const claim = (name: string) => {
      if (name in body) {
        throw new InvalidError(`Send the form field ${name} once.`, [{ field: `body.${name}`, message: "repeated" }]);
      }
      body[name] = undefined;
    };
    parser.on("field", (name, value, info) => {
      try {
        claim(name);
        if (info.valueTruncated) {
          throw new InvalidError(`The form field ${name} is longer than ${MAX_FIELD_BYTES} bytes.`, [
            { field: `body.${name}`, message: "too long" },
          ]);
        }
        body[name] = rules.jsonFields.includes(name) ? parseJsonField(name, value) : value;
      } catch (error) {
        fail(error);
      }
    });
    parser.on("file", (name, stream, info) => {
      files.push(stream);
      try {
        claim(name);
      } catch (error) {
        stream.resume();
        return fail(error);
      }
      spooling.push(
        spoolToFile(stream, maxFileBytes, tooLarge).then(
          (spooled) => {
            body[name] = new UploadedFile(spooled, info.filename || null, info.mimeType || null);
            if (failed) void discardUploads({ [name]: body[name] });
          },
          (error) => fail(error),
        ),
      );
    });
    parser.on("partsLimit", () =>
      fail(new InvalidError(`Malformed multipart/form-data body: more than ${MAX_PARTS} parts.`)),
    );
    parser.on("error", () => fail(new InvalidError("Malformed multipart/form-data body.")));
    parser.on("close", () => {
      void Promise.all(spooling).then(() => (failed ? undefined : resolve()));
    });
    const source = requestBody(request);
    let received = 0;
    source.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxFileBytes + FORM_OVERHEAD_BYTES) fail(tooLarge());
    });
    source.on("error", () => fail(bodyCutOff()));
    source.pipe(parser);
  });
}

function parseJsonField(name: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidError(`The form field ${name} must be JSON, like {"team": "support"}.`, [
      { field: `body.${name}`, message: "must be JSON" },
    ]);
  }
}
