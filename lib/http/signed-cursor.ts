// Where a page of a listing ends, as an opaque cursor: signed and bound to the listing it was made for
// (organization, namespace, the reader's scopes, the filters), so a cursor altered, invented or carried to
// another listing is refused (400), never followed.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { InvalidError } from "@/lib/errors";
import { canonicalJson } from "@/lib/http/canonical-json";
import { serverSecret } from "@/lib/secrets";

/** What a cursor is valid for: the parts of its listing (organization, namespace, scopes, filters). */
export function listingFingerprint(parts: unknown[]): string {
  return createHash("sha256").update(canonicalJson(parts)).digest("base64url").slice(0, 22);
}

function invalidCursor(message: string, parameter: string): InvalidError {
  const field = `query.${parameter}`;
  return new InvalidError(`Invalid request query. ${field}: ${message}`, [{ field, message }]);
}

/**
 * The cursors of one listing kind: each signed with a key of its own, derived from the server's pepper (rotating
 * the pepper voids old cursors), its payload read back through `payload` (which carries the listing as `l`).
 */
export function signedCursors<Payload extends { l: string }>(
  purpose: string,
  payload: z.ZodType<Payload>,
  /** The query parameter that carries it, and where the caller got it from (said when it is refused). */
  parameter = { name: "cursor", source: "pagination.nextCursor of the previous page" },
) {
  let signingKey: Buffer | undefined;
  const signature = (text: string) => {
    signingKey ??= createHmac("sha256", serverSecret("KEY_PEPPER")).update(`memgw ${purpose} cursor v1`).digest();
    return createHmac("sha256", signingKey).update(text).digest().subarray(0, 16);
  };
  return {
    write(position: Payload): string {
      const text = Buffer.from(JSON.stringify(position)).toString("base64url");
      return `${text}.${signature(text).toString("base64url")}`;
    },
    /** The position a cursor of this listing names, or a 400 saying why it cannot be used. */
    read(cursor: string, listing: string): Payload {
      const malformed = invalidCursor(`is not a cursor this API made: pass ${parameter.source}`, parameter.name);
      const [text, mac, ...rest] = cursor.split(".");
      if (rest.length > 0 || !text || !mac || !/^[\w-]+$/.test(text) || !/^[\w-]+$/.test(mac)) throw malformed;
      const expected = signature(text);
      const given = Buffer.from(mac, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw malformed;
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
      } catch {
        throw malformed;
      }
      const parsed = payload.safeParse(decoded);
      if (!parsed.success) throw malformed;
      if (parsed.data.l !== listing) {
        throw invalidCursor(
          "was made for another listing (namespace or filters): start again without a cursor, or keep the filters",
          parameter.name,
        );
      }
      return parsed.data;
    },
  };
}
