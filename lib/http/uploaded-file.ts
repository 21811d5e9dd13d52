import { createHash } from "node:crypto";

/**
 * A file sent as a multipart/form-data part. Its bytes are not an enumerable property, so what fingerprints a
 * request for its Idempotency-Key (canonical JSON) reads the file's name, type, size and sha256, never the
 * whole content.
 */
export class UploadedFile {
  readonly name: string | null;
  readonly type: string | null;
  readonly size: number;
  readonly sha256: string;
  declare readonly bytes: Buffer;

  constructor(bytes: Buffer, name: string | null, type: string | null) {
    this.name = name;
    this.type = type;
    this.size = bytes.length;
    this.sha256 = createHash("sha256").update(bytes).digest("hex");
    Object.defineProperty(this, "bytes", { value: bytes, enumerable: false });
  }
}
