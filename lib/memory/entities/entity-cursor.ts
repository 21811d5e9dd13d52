// Where a page of entities ends, as an opaque cursor: signed and bound to the listing it was made for, so
// a cursor altered, invented or carried to another namespace or filter is refused (400), never followed.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { InvalidError } from "@/lib/errors";
import { canonicalJson } from "@/lib/http/canonical-json";
import { serverSecret } from "@/lib/secrets";

/** The last entity of a page in the listing's order (memory count descending, name, id), and the next page's number. */
export interface EntityCursorPosition {
  memoryCount: number;
  name: string;
  id: string;
  page: number;
}

/** What a cursor is valid for: its listing's organization, namespace, reader's scopes and filters. */
export function entityListingFingerprint(parts: unknown[]): string {
  return createHash("sha256").update(canonicalJson(parts)).digest("base64url").slice(0, 22);
}

let signingKey: Buffer | undefined;

/** A key of its own, derived from the server's pepper (rotating the pepper voids old cursors). */
function cursorKey(): Buffer {
  signingKey ??= createHmac("sha256", serverSecret("KEY_PEPPER")).update("memgw list-entities cursor v1").digest();
  return signingKey;
}

function signature(payload: string): Buffer {
  return createHmac("sha256", cursorKey()).update(payload).digest().subarray(0, 16);
}

export function writeEntityCursor(position: EntityCursorPosition, listing: string): string {
  const payload = Buffer.from(
    JSON.stringify({ c: position.memoryCount, n: position.name, i: position.id, p: position.page, l: listing }),
  ).toString("base64url");
  return `${payload}.${signature(payload).toString("base64url")}`;
}

const CursorPayload = z.strictObject({
  c: z.number().int().positive(),
  n: z.string(),
  i: z.string().min(1).max(255),
  p: z.number().int().min(2),
  l: z.string(),
});

function invalidCursor(message: string): InvalidError {
  return new InvalidError(`Invalid request query. query.cursor: ${message}`, [{ field: "query.cursor", message }]);
}

/** The position a cursor of this listing names, or a 400 saying why it cannot be used. */
export function readEntityCursor(cursor: string, listing: string): EntityCursorPosition {
  const malformed = invalidCursor("is not a cursor this API made: pass pagination.nextCursor of the previous page");
  const [payload, mac, ...rest] = cursor.split(".");
  if (rest.length > 0 || !payload || !mac || !/^[\w-]+$/.test(payload) || !/^[\w-]+$/.test(mac)) throw malformed;
  const expected = signature(payload);
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw malformed;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw malformed;
  }
  const parsed = CursorPayload.safeParse(decoded);
  if (!parsed.success) throw malformed;
  if (parsed.data.l !== listing) {
    throw invalidCursor(
      "was made for another listing (namespace or filters): start again without a cursor, or keep the filters",
    );
  }
  return { memoryCount: parsed.data.c, name: parsed.data.n, id: parsed.data.i, page: parsed.data.p };
}
