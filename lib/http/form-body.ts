import { InvalidError, PayloadTooLargeError } from "@/lib/errors";
import { UploadedFile } from "./uploaded-file";
import { readBodyBytes, readJsonBody } from "./body";

/** Room for a multipart body's boundaries, part headers and text fields besides its file. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

/** An operation that takes a file: how large, and which text fields of a form carry JSON (scopes, metadata). */
export interface UploadRules {
  maxFileBytes: () => number;
  jsonFields: readonly string[];
}

/**
 * The body of an operation that takes a file: a multipart/form-data form (its file parts as UploadedFile,
 * its JSON fields parsed, every other field a string) or a JSON object, whose base64 content may be as large
 * as the file limit allows. 413 past the limit, as declared or as it arrives; 400 for a malformed form.
 */
export async function readUploadBody(request: Request, rules: UploadRules): Promise<unknown> {
  const maxFileBytes = rules.maxFileBytes();
  const tooLarge = () => new PayloadTooLargeError(`The document is larger than ${maxFileBytes} bytes.`);
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType)) {
    // Base64 is 4/3 of the bytes it carries.
    return readJsonBody(request, Math.ceil((maxFileBytes * 4) / 3) + FORM_OVERHEAD_BYTES, () => tooLarge());
  }
  const bytes = await readBodyBytes(request, maxFileBytes + FORM_OVERHEAD_BYTES, tooLarge);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new InvalidError("Malformed multipart/form-data body.");
  }
  const body: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (name in body)
      throw new InvalidError(`Send the form field ${name} once.`, [{ field: `body.${name}`, message: "repeated" }]);
    if (typeof value !== "string") {
      const file = Buffer.from(await value.arrayBuffer());
      if (file.length > maxFileBytes) throw tooLarge();
      body[name] = new UploadedFile(file, value.name || null, value.type || null);
    } else if (rules.jsonFields.includes(name)) {
      body[name] = parseJsonField(name, value);
    } else {
      body[name] = value;
    }
  }
  return body;
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
