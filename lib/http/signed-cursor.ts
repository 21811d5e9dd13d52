// Where a page of a listing ends, as an opaque cursor: signed and bound to the listing it was made for
// (organization, namespace, the reader's scopes, the filters), so a cursor altered, invented or carried to
// another listing is refused (400), never followed. The signature covers the organization: another
// organization's cursor is refused exactly like an invented one, with no hint that it is valid elsewhere.
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
  // `org` null: the signature of cursors made before it covered the organization (an events reader may keep
  // one for long). The prefix cannot be mistaken for a text: base64url has no ":".
  const signature = (text: string, org: string | null) => {
    signingKey ??= createHmac("sha256", serverSecret("KEY_PEPPER")).update(`memgw ${purpose} cursor v1`).digest();
    return createHmac("sha256", signingKey)
      .update(org === null ? text : `org:${org}\n${text}`)
      .digest()
      .subarray(0, 16);
  };
  const signedBy = (given: Buffer, text: string, org: string | null) => {
    const expected = signature(text, org);
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  return {
    /** A cursor for `position`, valid for the organization `orgId` only. */
    write(position: Payload, orgId: string): string {
      const text = Buffer.from(JSON.stringify(position)).toString("base64url");
      return `${text}.${signature(text, orgId).toString("base64url")}`;
    },
    /** The position a cursor of this listing (of organization `orgId`) names, or a 400 saying why not. */
    read(cursor: string, listing: string, orgId: string): Payload {
      const malformed = invalidCursor(`is not a cursor this API made: pass ${parameter.source}`, parameter.name);
      const [text, mac, ...rest] = cursor.split(".");
      if (rest.length > 0 || !text || !mac || !/^[\w-]+$/.test(text) || !/^[\w-]+$/.test(mac)) throw malformed;
      const given = Buffer.from(mac, "base64url");
      const ofThisOrganization = signedBy(given, text, orgId);
      if (!ofThisOrganization && !signedBy(given, text, null)) throw malformed;
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
      } catch {
        throw malformed;
      }
      const parsed = payload.safeParse(decoded);
      if (!parsed.success) throw malformed;
      if (parsed.data.l !== listing) {
        // Only a cursor known to be this organization's may say it belongs to another of its listings.
        if (!ofThisOrganization) throw malformed;
        throw invalidCursor(
          "was made for another listing (namespace or filters): start again without a cursor, or keep the filters",
          parameter.name,
        );
      }
      return parsed.data;
    },
  };
}
