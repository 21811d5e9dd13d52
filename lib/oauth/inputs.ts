import { identifier, name } from "@/lib/validation/strings";

/** The largest request body the authorization server reads: a registration or a token request is small. */
export const OAUTH_BODY_MAX_BYTES = 64 * 1024;
/** The longest parameter or metadata value (a redirect URI, a state, a resource) and the longest name of one. */
export const OAUTH_VALUE_MAX = 4096;
const OAUTH_KEY_MAX = 200;
const CLIENT_NAME_MAX = 200;

const PARAMETER_VALUE = identifier({ max: OAUTH_VALUE_MAX });
const PARAMETER_NAME = identifier({ max: OAUTH_KEY_MAX });
const CLIENT_NAME = name({ min: 1, max: CLIENT_NAME_MAX, lengthMessage: `must be 1 to ${CLIENT_NAME_MAX} characters` });

/** What the authorization server refuses before oidc-provider sees it: the RFC's error, and the status. */
export class OauthInputError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export interface OauthRequestParts {
  /** The path oidc-provider routes on, and the raw query string (with its `?`, or empty). */
  path: string;
  search: string;
  headers: Headers;
  body?: Buffer;
}

/**
 * The API's string rules (lib/validation/strings.ts) on every input of the authorization server, so that no
 * string the database cannot store (U+0000, an unpaired surrogate, bytes that are not UTF-8) reaches
 * oidc-provider's storage, and none a person cannot see reaches a page: each path segment, query and form
 * parameter (names and values), client credentials in a Basic header, and every key and string of a
 * registration's JSON. Parameters and metadata are identifiers (OAuth's values are printable: RFC 6749's
 * VSCHAR), a client's name is a name (NFC, no invisible characters). Returns the body oidc-provider gets:
 * a registration's JSON with its client names normalized; throws an OauthInputError otherwise.
 */
export function checkedOauthInputs(request: OauthRequestParts): Buffer | undefined {
  for (const segment of request.path.split("/")) check("the path", decoded(segment, "the path"), PARAMETER_VALUE);
  checkParameters(request.search.replace(/^\?/, ""), "query");
  checkBasicCredentials(request.headers.get("authorization"));
  if (!request.body || request.body.length === 0) return request.body;
  if (request.body.length > OAUTH_BODY_MAX_BYTES) {
    throw new OauthInputError("invalid_request", `The request body is larger than ${OAUTH_BODY_MAX_BYTES} bytes.`, 413);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(request.body);
  } catch {
    throw new OauthInputError("invalid_request", "The request body is not valid UTF-8.");
  }
  const type = request.headers.get("content-type") ?? "";
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    checkParameters(text, "form");
    return request.body;
  }
  if (/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    let metadata: unknown;
    try {
      metadata = JSON.parse(text);
    } catch {
      throw new OauthInputError("invalid_client_metadata", "The request body is not well-formed JSON.");
    }
    return Buffer.from(JSON.stringify(checkedJson(metadata, [])));
  }
  // Any other body is one oidc-provider does not read (it refuses the request).
  return request.body;
}

/** Each `name=value` of a query string or form body, percent-decoded strictly (UTF-8 only). */
function checkParameters(encoded: string, where: "query" | "form") {
  if (!encoded) return;
  for (const pair of encoded.split("&")) {
    if (!pair) continue;
    const at = pair.indexOf("=");
    const key = decoded(at < 0 ? pair : pair.slice(0, at), `a ${where} parameter's name`);
    check(`a ${where} parameter's name`, key, PARAMETER_NAME);
    if (at >= 0) check(key, decoded(pair.slice(at + 1), key), PARAMETER_VALUE);
  }
}

/**
 * A percent-encoded component as text: refused when it is malformed or its bytes are not UTF-8. U+FFFD is
 * refused too: Next re-encodes a query string's invalid bytes as U+FFFD before the route sees it, and no
 * OAuth parameter holds one (their values are printable ASCII, RFC 6749's VSCHAR, or URIs).
 */
function decoded(component: string, what: string): string {
  let text: string | undefined;
  try {
    text = decodeURIComponent(component.replace(/\+/g, " "));
  } catch {
    // refused below
  }
  if (text === undefined || text.includes("\uFFFD")) {
    throw new OauthInputError(
      "invalid_request",
      `${label(what)} is not valid percent-encoded UTF-8 (an unpaired surrogate or a stray byte).`,
    );
  }
  return text;
}

/** Client credentials in an `Authorization: Basic` header (RFC 6749 2.3.1: each form-encoded, then base64). */
function checkBasicCredentials(header: string | null) {
  const basic = /^basic\s+(.*)$/i.exec(header ?? "");
  if (!basic) return;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(basic[1], "base64"));
  } catch {
    throw new OauthInputError("invalid_request", "The Basic credentials are not valid UTF-8.");
  }
  for (const part of text.split(":"))
    check("the Basic credentials", decoded(part, "the Basic credentials"), PARAMETER_VALUE);
}

/** A registration's metadata (RFC 7591), key by key: client names normalized, everything else kept. */
function checkedJson(value: unknown, path: string[]): unknown {
  const where = path.join(".") || "the body";
  // RFC 7591's errors: a redirect URI's own, or the metadata's.
  const error = path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata";
  if (typeof value === "string") {
    return check(where, value, /^client_name(#|$)/.test(path[0] ?? "") ? CLIENT_NAME : PARAMETER_VALUE, error);
  }
  if (Array.isArray(value)) return value.map((item, index) => checkedJson(item, [...path, String(index)]));
  if (typeof value === "object" && value !== null) {
    const checked: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      check(`a key of ${where}`, key, PARAMETER_NAME, error);
      // A key named __proto__ (JSON.parse keeps it as data) stays data.
      Object.defineProperty(checked, key, {
        value: checkedJson(item, [...path, key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return checked;
  }
  return value;
}

function check(what: string, value: string, schema: typeof PARAMETER_VALUE, error = "invalid_request"): string {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new OauthInputError(error, `${label(what)} ${result.error.issues[0]?.message ?? "is not valid"}.`);
}

function label(what: string) {
  return /^(the|a) /.test(what) ? what.charAt(0).toUpperCase() + what.slice(1) : what;
}
