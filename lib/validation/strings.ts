// The one validation of every string the system accepts (API, MCP, console, CLI): importable by console
// forms in the browser. PostgreSQL refuses U+0000 and unpaired UTF-16 surrogates in `text` and `jsonb`,
// so a string carrying one must be refused here, with the field named, before it reaches a query.
import { z } from "zod";

/**
 * Characters a person cannot see or that reorder what they see: controls (Cc), format characters (Cf:
 * zero-width space/joiners, bidirectional overrides and isolates, the byte-order mark, soft hyphen), the
 * line/paragraph separators, the default-ignorable code points (variation selectors, the combining
 * grapheme joiner, Hangul fillers, tag characters) and the blank braille pattern, which renders as a
 * space. Two names differing only by them look the same.
 */
const INVISIBLE = String.raw`\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{DI}\u2800`;
// With the `u` flag a well-formed surrogate pair is one code point above U+FFFF, so only an unpaired
// surrogate falls in \uD800-\uDFFF.
const UNSTORABLE = String.raw`\u0000\uD800-\uDFFF`;

/**
 * The patterns are also the OpenAPI document's `pattern`s (ECMA-262 with the `u` flag, as JSON Schema
 * validators read them). Each is linear: no two adjacent parts overlap, so a long hostile input cannot
 * make it backtrack.
 */
const TEXT_PATTERN = new RegExp(`^[^${UNSTORABLE}]*$`, "u");
const NOT_BLANK_TEXT_PATTERN = new RegExp(`^\\s*[^\\s${UNSTORABLE}][^${UNSTORABLE}]*$`, "u");
const IDENTIFIER_PATTERN = new RegExp(`^[^${UNSTORABLE}${INVISIBLE}]*$`, "u");
/** At least one visible character; white space only around it (trimmed away). */
const NAME_PATTERN = new RegExp(`^\\p{Zs}*[^\\s${UNSTORABLE}${INVISIBLE}][^${UNSTORABLE}${INVISIBLE}]*$`, "u");

// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const INVISIBLE_CHARACTER = new RegExp(`[${INVISIBLE}]`, "u");

type Rules = "text" | "identifier" | "name";

/** Why a string is refused, most fundamental problem first (a name of only spaces is "empty"). */
function problemOf(value: unknown, rules: Rules): string {
  if (typeof value !== "string") return "must be a string";
  if (NUL.test(value)) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(value)) return "must not contain an unpaired UTF-16 surrogate (invalid Unicode)";
  const invisible = INVISIBLE_CHARACTER.exec(value);
  if (rules !== "text" && invisible) {
    const codePoint = invisible[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return `must not contain control, zero-width or bidirectional-override characters (found U+${codePoint})`;
  }
  return "must not be empty or only white space";
}

interface Length {
  /** Refuse a string of only white space (part of the pattern, so the OpenAPI document states it too). */
  notBlank?: boolean;
  min?: number;
  max?: number;
  /** The message of both bounds, e.g. "must be 1 to 255 characters". */
  lengthMessage?: string;
}

function bounded(schema: z.ZodString, { min, max, lengthMessage }: Length): z.ZodString {
  let bounded = schema;
  if (min !== undefined) bounded = bounded.min(min, lengthMessage ?? `must be at least ${min} characters`);
  if (max !== undefined) bounded = bounded.max(max, lengthMessage ?? `must be at most ${max} characters`);
  return bounded;
}

/** A string matching the rules' pattern, refused with the reason problemOf finds. */
function matching(pattern: RegExp, rules: Rules): z.ZodString {
  return z.string({ error: "must be a string" }).regex(pattern, { error: (issue) => problemOf(issue.input, rules) });
}

/** Free text (content, queries, descriptions, metadata values, secrets): kept as given, but storable. */
export function text(length: Length = {}): z.ZodString {
  return bounded(matching(length.notBlank ? NOT_BLANK_TEXT_PATTERN : TEXT_PATTERN, "text"), length);
}

/**
 * An identifier or key (ids, external references, identity ids, metadata and scope keys, scope values):
 * compared exactly as given, so refused rather than altered when it holds a character that cannot be
 * stored or cannot be seen.
 */
export function identifier(length: Length = {}): z.ZodString {
  return bounded(matching(IDENTIFIER_PATTERN, "identifier"), length);
}

/**
 * A name people read and tell apart (namespace, organization, key, user): NFC-normalized and trimmed,
 * so names that look the same are the same name; invisible characters refused. The length bounds apply
 * to the name as sent (what the OpenAPI document states).
 */
export function name(length: Length = {}): z.ZodString {
  return (
    bounded(matching(NAME_PATTERN, "name"), length)
      // A no-break or ideographic space looks like a space: "my ns" is one name however its spaces were typed.
      .overwrite((value) => value.replace(/\p{Zs}/gu, " "))
      .normalize("NFC")
      .trim()
      .describe("NFC-normalized and trimmed; control, zero-width and bidirectional-override characters are refused")
  );
}

/** An object of keys to values (metadata, scopes) whose refused key says why, not "Invalid key in record". */
export function record<Key extends z.core.$ZodRecordKey, Value extends z.ZodType>(key: Key, value: Value) {
  return z.record(key, value, {
    error: (issue) =>
      issue.code === "invalid_key" ? `key: ${issue.issues.map((inner) => inner.message).join("; ")}` : undefined,
  });
}
