// Text clean-up and the block/section bookkeeping every format shares.
// Relative, not "@/": the extraction thread loads these sources through tsx alone.
import { hasVisibleText } from "../../validation/strings";
import type { ExtractedBlock } from "./types";

// U+0000 and lone surrogates break PostgreSQL text columns and JSON encoders downstream; the other C0 controls
// and the soft hyphen are invisible in the original and only split words in search.
const UNSAFE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000E-\u001F\u007F\u00AD]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text with the characters no stored text may hold removed (line breaks and tabs kept). */
export function stripUnsafeCharacters(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, "");
}

/** Safe text on one line: every run of whitespace (line breaks included) becomes one space, ends trimmed. */
export function cleanText(text: string): string {
  return stripUnsafeCharacters(text).replace(/\s+/g, " ").trim();
}

/** `cleanText` of a title candidate, or null when a person would see nothing of it (only invisible characters). */
export function titleText(text: string): string | null {
  const cleaned = cleanText(text);
  return hasVisibleText(cleaned) ? cleaned : null;
}

/**
 * Lines of one paragraph joined into one: a word hyphenated across a line break is mended ("informa-" +
 * "tion" → "information") when the next line goes on in lower case; otherwise the hyphen stays and, since
 * it joined a compound such as "Jean-Paul", no space is added.
 */
export function joinLines(lines: string[]): string {
  let joined = "";
  for (const rawLine of lines) {
    const line = cleanText(rawLine);
    if (!line) continue;
    if (!joined) {
      joined = line;
    } else if (/\p{L}-$/u.test(joined)) {
      joined = /^\p{Ll}/u.test(line) ? joined.slice(0, -1) + line : joined + line;
    } else {
      joined = `${joined} ${line}`;
    }
  }
  return joined;
}

/** Text decoded as UTF-8 (or the charset given), a byte order mark dropped, line breaks made "\n". */
export function decodeText(bytes: Uint8Array, charset: string | null = null): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? "utf-8");
  } catch {
    // An unknown label (a typo in a Content-Type header) should not make a readable file unreadable.
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(bytes).replace(/\r\n?/g, "\n");
}

/**
 * The heading path while walking a document: a heading replaces every heading at its level or deeper, so
 * `section` is always outermost first.
 */
export class SectionPath {
  private readonly headings: { level: number; text: string }[] = [];

  /** Lower level = outer (h1 before h2; a PDF passes its font size negated, since larger is outer). */
  enter(level: number, heading: string): void {
    const text = cleanText(heading);
    if (!hasVisibleText(text)) return;
    while (this.headings.length > 0 && this.headings[this.headings.length - 1].level >= level) this.headings.pop();
    this.headings.push({ level, text });
  }

  get current(): string[] {
    return this.headings.map((heading) => heading.text);
  }
}

/**
 * Collects blocks, dropping those left empty once cleaned, so no extractor emits an empty block: one of only
 * invisible characters (zero-width spaces, soft hyphens…) is empty too, as content sent to the API would be.
 */
export class BlockCollector {
  readonly blocks: ExtractedBlock[] = [];

  add(text: string, section: string[], page: number | null): void {
    const cleaned = cleanText(text);
    if (hasVisibleText(cleaned)) this.blocks.push({ page, section: [...section], text: cleaned });
  }
}
