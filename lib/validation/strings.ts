// The one validation of every string the system accepts (API, MCP, console, CLI): importable by console
// forms in the browser. PostgreSQL refuses U+0000 and unpaired UTF-16 surrogates in `text` and `jsonb`,
// so a string carrying one must be refused here, with the field named, before it reaches a query.
import { z } from "zod";

/**
 * Characters a person cannot see or that reorder what they see, as ranges of code points: controls (Cc,
 * but U+0000, which is unstorable), format characters (Cf: zero-width space/joiners, bidirectional
 * overrides and isolates, the byte-order mark, soft hyphen, the Mongolian vowel separator), the line and
 * paragraph separators (Zl, Zp), the default-ignorable code points (DI: variation selectors, the combining
 * grapheme joiner, Hangul fillers, tag characters) and the blank braille pattern, which renders as a space.
 * Two names differing only by them look the same; a text of only them shows nothing.
 *
 * Spelled out rather than as `\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{DI}`: these classes are also the `pattern`s of the
 * OpenAPI document and the MCP tools' input schemas, which clients compile with their own regular
 * expressions, and Python's `re` (the `jsonschema` package) has no `\p`. They are the code points of those
 * properties in Unicode 17 (Node 20.20); tests/validation/strings.test.ts checks that the running engine knows
 * no other.
 */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0001, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x0600, 0x0605],
  [0x061c, 0x061c],
  [0x06dd, 0x06dd],
  [0x070f, 0x070f],
  [0x0890, 0x0891],
  [0x08e2, 0x08e2],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfffb],
  [0x110bd, 0x110bd],
  [0x110cd, 0x110cd],
  [0x13430, 0x1343f],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];
/** What ECMAScript's `\s` matches (Python's `\s` differs: U+001C–U+001F in, U+FEFF out). */
const WHITE_SPACE_RANGES = [
  [0x0009, 0x000d],
  [0x0020, 0x0020],
  [0x00a0, 0x00a0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
] as const;
/** The space separators (Zs): what looks like a space. */
const SPACE_RANGES = WHITE_SPACE_RANGES.filter(([first]) => first >= 0x20 && first !== 0x2028 && first !== 0xfeff);

/**
 * The ranges as the inside of a character class that ECMAScript (with the `u` flag, as JSON Schema
 * validators compile patterns) and Python's `re` read alike: `\uXXXX` in the Basic Multilingual Plane,
 * the character itself above it (`\u{…}` is ECMAScript's alone, `\U…` Python's alone).
 */
function classOf(ranges: readonly (readonly [number, number])[]): string {
  const one = (codePoint: number) =>
    codePoint > 0xffff
      ? String.fromCodePoint(codePoint)
      : `\\u${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
  return ranges.map(([first, last]) => (first === last ? one(first) : `${one(first)}-${one(last)}`)).join("");
}

const INVISIBLE = classOf(INVISIBLE_RANGES);
/** ECMAScript's `\s` as the inside of a character class any dialect reads alike, for patterns of other modules. */
export const WHITE_SPACE = classOf(WHITE_SPACE_RANGES);
// With the `u` flag a well-formed surrogate pair is one code point above U+FFFF, so only an unpaired
// surrogate falls in \uD800-\uDFFF (Python's strings hold code points: the same).
const UNSTORABLE = String.raw`\u0000\uD800-\uDFFF`;

/**
 * The patterns are also the OpenAPI document's and the MCP tools' `pattern`s, so they use only what every
 * regular expression dialect reads alike: no `\p`, `\s`, `\d` or `\w` (tests/mcp/mcp-schemas.test.ts checks).
 * Each is linear: no two adjacent parts overlap, so a long hostile input cannot make it backtrack.
 */
const TEXT_PATTERN = new RegExp(`^[^${UNSTORABLE}]*$`, "u");
/** At least one character that is neither white space nor invisible: what a person would see. */
const NOT_BLANK_TEXT_PATTERN = new RegExp(
  `^[${WHITE_SPACE}${INVISIBLE}]*[^${WHITE_SPACE}${INVISIBLE}${UNSTORABLE}][^${UNSTORABLE}]*$`,
  "u",
);
const IDENTIFIER_PATTERN = new RegExp(`^[^${UNSTORABLE}${INVISIBLE}]*$`, "u");
/** At least one visible character; white space only around it (trimmed away). */
const NAME_PATTERN = new RegExp(
  `^[${classOf(SPACE_RANGES)}]*[^${WHITE_SPACE}${UNSTORABLE}${INVISIBLE}][^${UNSTORABLE}${INVISIBLE}]*$`,
  "u",
);
const SPACES = new RegExp(`[${classOf(SPACE_RANGES)}]`, "gu");

/** An http or https URL (the scheme in any case: a pattern has no flags) with no white space. */
export const HTTP_URL_PATTERN = new RegExp(`^[Hh][Tt][Tt][Pp][Ss]?://[^${WHITE_SPACE}${UNSTORABLE}]+$`, "u");

// eslint-disable-next-line no-control-regex -- finding the NUL character is the point
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const INVISIBLE_CHARACTER = new RegExp(`[${INVISIBLE}]`, "u");
const VISIBLE_CHARACTER = new RegExp(`[^${WHITE_SPACE}${INVISIBLE}]`, "u");
/** An invisible character that is not also white space (a line break is white space first). */
const INVISIBLE_NOT_SPACE = new RegExp(`(?![\\u0009-\\u000D\\u2028\\u2029])[${INVISIBLE}]`, "u");

/**
 * Whether a person would see anything of `value`: a character other than white space and the invisible
 * ones above (U+200B, U+2060, U+00AD, U+FEFF…). Text of only those is refused where text is required.
 */
export function hasVisibleText(value: string): boolean {
  return VISIBLE_CHARACTER.test(value);
}

/** "U+200B": how a message names a character. */
function codePointOf(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

type Rules = "text" | "identifier" | "name";

/** Why a string is refused, most fundamental problem first (a name of only spaces is "empty"). */
function problemOf(value: unknown, rules: Rules): string {
  if (typeof value !== "string") return "must be a string";
  if (NUL.test(value)) return "must not contain the NUL character (U+0000)";
  if (LONE_SURROGATE.test(value)) return "must not contain an unpaired UTF-16 surrogate (invalid Unicode)";
  const invisible = INVISIBLE_CHARACTER.exec(value);
  if (rules !== "text" && invisible) {
    const found = codePointOf(invisible[0]);
    return `must not contain control, zero-width or bidirectional-override characters (found ${found})`;
  }
  const unseen = INVISIBLE_NOT_SPACE.exec(value);
  if (unseen) {
    return `must not be empty or only white space and invisible characters (found ${codePointOf(unseen[0])})`;
  }
  return "must not be empty or only white space";
}

interface Length {
  /**
   * Refuse a string of only white space and invisible characters (part of the pattern, so the OpenAPI document
   * and the MCP tools' schemas state it too).
   */
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
      .overwrite((value) => value.replace(SPACES, " "))
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
