// Which of the supported formats some bytes are: what the bytes say first, since a declared type and a file
// name are only claims (a browser sends application/octet-stream for a .md file, a server text/html for a PDF).
import { Buffer, isUtf8 } from "node:buffer";

export const PDF = "application/pdf";
export const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
export const HTML = "text/html";
export const MARKDOWN = "text/markdown";
export const PLAIN_TEXT = "text/plain";
export const PNG = "image/png";
export const JPEG = "image/jpeg";

export const SUPPORTED_CONTENT_TYPES: readonly string[] = Object.freeze([
  PDF,
  DOCX,
  HTML,
  MARKDOWN,
  PLAIN_TEXT,
  PNG,
  JPEG,
]);

const TEXT_TYPES = new Set([HTML, MARKDOWN, PLAIN_TEXT]);

const ALIASES: Record<string, string> = {
  "application/x-pdf": PDF,
  "application/acrobat": PDF,
  "application/xhtml+xml": HTML,
  "text/x-markdown": MARKDOWN,
  "text/md": MARKDOWN,
  "image/x-png": PNG,
  "image/jpg": JPEG,
  "image/pjpeg": JPEG,
};

const EXTENSIONS: Record<string, string> = {
  pdf: PDF,
  docx: DOCX,
  html: HTML,
  htm: HTML,
  md: MARKDOWN,
  markdown: MARKDOWN,
  txt: PLAIN_TEXT,
  png: PNG,
  jpg: JPEG,
  jpeg: JPEG,
};

export interface ParsedContentType {
  /** The canonical type when supported, else the bare declared type in lower case. */
  type: string;
  /** The charset parameter, lower case, when one was given. */
  charset: string | null;
}

/** A Content-Type value split into its canonical type and charset ("Text/HTML; charset=UTF-8"). */
export function parseContentType(declared: string): ParsedContentType {
  const [essence, ...parameters] = declared.split(";");
  const bare = essence.trim().toLowerCase();
  let charset: string | null = null;
  for (const parameter of parameters) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(parameter);
    if (match) charset = match[1].toLowerCase();
  }
  return { type: ALIASES[bare] ?? bare, charset };
}

/**
 * The canonical content type of some bytes: magic bytes first (%PDF-, a zip holding word/document.xml, PNG,
 * JPEG), then the declared type, then the file name's extension; null when none of the supported types.
 * Text claimed for binary bytes (NUL bytes, or invalid UTF-8 without a declared legacy charset) is null.
 */
export function detectContentType(bytes: Uint8Array, declared: string | null, filename: string | null): string | null {
  const sniffed = sniffMagicBytes(bytes);
  if (sniffed) return sniffed;
  const claim = claimedType(declared, filename);
  if (!claim.type) return null;
  if (TEXT_TYPES.has(claim.type) && notTextBecause(bytes, claim.charset)) return null;
  return claim.type;
}

/**
 * Why bytes claimed as a text format (by their declared type or their name) are not that text, in a sentence
 * to show: they hold NUL bytes (binary data), or they are not UTF-8 and name no other charset. Null when the
 * bytes are not claimed as text, or are text: then detectContentType's null means an unsupported type.
 */
export function notTextReason(bytes: Uint8Array, declared: string | null, filename: string | null): string | null {
  if (sniffMagicBytes(bytes)) return null;
  const claim = claimedType(declared, filename);
  if (!claim.type || !TEXT_TYPES.has(claim.type)) return null;
  const reason = notTextBecause(bytes, claim.charset);
  return reason && `It is sent as ${claim.type}, but ${reason}`;
}

function claimedType(
  declared: string | null,
  filename: string | null,
): { type: string | null; charset: string | null } {
  const parsed = declared ? parseContentType(declared) : null;
  const fromExtension = filename ? extensionType(filename) : null;
  let claimed = parsed && SUPPORTED_CONTENT_TYPES.includes(parsed.type) ? parsed.type : fromExtension;
  // Plain text is what uploads of Markdown are often declared as; the name says which it is meant as.
  if (claimed === PLAIN_TEXT && fromExtension === MARKDOWN) claimed = MARKDOWN;
  return { type: claimed, charset: parsed?.charset ?? null };
}

function sniffMagicBytes(bytes: Uint8Array): string | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // At the very start only: a text file may well mention "%PDF-" in its first lines. A PDF with junk before
  // its header is still read when it is declared or named as one.
  if (startsWith(buffer, [0x25, 0x50, 0x44, 0x46, 0x2d])) return PDF;
  if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04]) && buffer.includes("word/document.xml")) return DOCX;
  if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return PNG;
  if (startsWith(buffer, [0xff, 0xd8, 0xff])) return JPEG;
  return null;
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function extensionType(filename: string): string | null {
  const match = /\.([a-z0-9]+)$/i.exec(filename.trim());
  return match ? (EXTENSIONS[match[1].toLowerCase()] ?? null) : null;
}

/** Why the bytes are not text (the rest of a sentence), or null when they are. */
function notTextBecause(bytes: Uint8Array, declaredCharset: string | null): string | null {
  if (bytes.includes(0)) {
    return "its content has NUL bytes, which no text has: it looks like binary data. Send the file with its own type.";
  }
  if (isUtf8(bytes)) return null;
  // A page in windows-1252 or Shift_JIS is text too, when its header or its <meta> names that charset.
  const charset = declaredCharset ?? sniffHtmlCharset(bytes);
  if (charset !== null && !/^utf-?8$/.test(charset) && isKnownCharset(charset)) return null;
  return (
    "its content is not valid UTF-8 and names no other known charset: convert it to UTF-8, or give its charset " +
    "(e.g. text/plain; charset=windows-1252)."
  );
}

/** The charset an HTML document's <meta> names in its first kilobytes, lower case, or null. */
export function sniffHtmlCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 4096)).toString("latin1");
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_:.-]+)/i.exec(head);
  return match ? match[1].toLowerCase() : null;
}

export function isKnownCharset(charset: string): boolean {
  try {
    new TextDecoder(charset);
    return true;
  } catch {
    return false;
  }
}
