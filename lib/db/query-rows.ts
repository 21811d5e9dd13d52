// Database.queryRows (lib/db/index.ts): a statement sent straight to the driver, not through Prisma.
// Recall's statements are built as SQL text anyway, and Prisma's raw query adds about 0.9 ms of JavaScript
// to each (its argument and result conversions); PGlite's own query() takes two exchanges where one does
// (it asks the statement its parameters' types first). Measured through lib/ on 10,000 memories: the
// lexical leg 5.6 → 4.9 ms, the vector leg 3.7 → 2.6 ms.

/**
 * A parameter as PostgreSQL's text format writes it, its type left to the statement (as PGlite and
 * node-postgres leave it): an array as an array literal, every element quoted; an object as JSON. Bytes stay
 * bytes, sent in binary format as node-postgres sends a Buffer: as text (base64 or hex) the protocol writer
 * measured and copied each character in JavaScript on the main thread, a quarter of its time while uploads
 * were stored (0.7 MB of base64 per part).
 */
export function textParameter(value: unknown): string | Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(",")}}`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function arrayElement(value: unknown): string {
  // An element is text: bytes in bytea's hex form (its backslash doubled by the quoting below).
  const parameter = textParameter(value);
  if (parameter === null) return "NULL";
  const text = parameter instanceof Uint8Array ? `\\x${Buffer.from(parameter).toString("hex")}` : parameter;
  return `"${text.replace(/["\\]/g, (character) => `\\${character}`)}"`;
}
