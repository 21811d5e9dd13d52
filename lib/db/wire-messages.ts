// The PostgreSQL wire protocol as PGliteThread (lib/db/pglite-thread.ts) speaks it, beside PGlite's serializer and
// parser: messages joined for one exchange, answers walked without parsing them, a Bind amended, errors named.
import { protocol, type QueryOptions } from "@electric-sql/pglite";

export type BackendMessage = Parameters<Parameters<InstanceType<typeof protocol.Parser>["parse"]>[1]>[0];
type DatabaseError = InstanceType<typeof protocol.messages.DatabaseError>;

/** The first byte of the backend messages PGliteThread looks for (PostgreSQL's protocol, §55.7). */
export const DATA_ROW = "D".charCodeAt(0);
export const ERROR_RESPONSE = "E".charCodeAt(0);
export const PARSE_COMPLETE = "1".charCodeAt(0);
export const ROW_DESCRIPTION = "T".charCodeAt(0);

const utf8 = new TextDecoder();

const BIND = "B".charCodeAt(0);

/**
 * A Bind message of the unnamed portal to `statement` (a prepared statement's name), with `values` as its
 * parameters (text, bytes sent in binary format, or null), asking for the result columns in text format, or with
 * `binaryResults` all in binary. The bytes PGlite's `protocol.serialize.bind` writes, in a quarter of its time: 8 µs
 * for a recall's statement where it took 30 to 37 on the main thread (its Writer's private fields are WeakMap
 * lookups, compiled down, and TextEncoder's `encode` costs 2 µs a string; Buffer's `write` puts the text in
 * place). PGlite's serializer also has a `binary` option, but writes its format code where the number of codes
 * goes (PostgreSQL then reads one code more than was sent: "insufficient data left in message").
 */
export function bindMessage(
  statement: string,
  values: readonly (string | Uint8Array | null)[],
  binaryResults = false,
): Uint8Array {
  const byteLength = (value: string | Uint8Array | null) =>
    value === null ? 0 : typeof value === "string" ? Buffer.byteLength(value) : value.length;
  // The length (4), the portal's name ("" and its NUL), the statement's name and its NUL, the parameters' format
  // codes (2 + 2 each), their values (2 + 4 each with their bytes), the result columns' format codes (2 [+ 2]).
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 * values.length + 2 + 2 + (binaryResults ? 2 : 0);
  for (const value of values) length += 4 + byteLength(value);
  // Its own memory, zeroed (the NULs and the format codes of text are zeros): it may be transferred.
  const message = Buffer.alloc(1 + length);
  message[0] = BIND;
  message.writeInt32BE(length, 1);
  let at = 6 + message.write(statement, 6) + 1; // after the type, the length, the portal's NUL, the name's NUL
  at = message.writeInt16BE(values.length, at);
  for (const value of values) at = message.writeInt16BE(value instanceof Uint8Array ? 1 : 0, at);
  at = message.writeInt16BE(values.length, at);
  for (const value of values) {
    at = message.writeInt32BE(value === null ? -1 : byteLength(value), at);
    if (typeof value === "string") at += message.write(value, at);
    else if (value !== null) {
      message.set(value, at);
      at += value.length;
    }
  }
  if (binaryResults) message.writeInt16BE(1, message.writeInt16BE(1, at));
  return message;
}

/**
 * Each backend message in `data`, in order, without parsing it: its type (its first byte), and where it starts
 * and ends in `data` (each is its type, then its length in 4 bytes, itself included, then its body).
 */
export function* backendMessages(data: Uint8Array): Generator<{ type: number; start: number; end: number }> {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let start = 0; start < data.length;) {
    const end = start + 1 + view.getInt32(start + 1);
    yield { type: data[start], start, end };
    start = end;
  }
}

/**
 * The rows of a statement's answers in text format, each column's text given to `parse` with its type's OID (a
 * null stays null); undefined if the answers hold an ErrorResponse (statementError then names it). Read from the
 * bytes as they are: PGlite's parser copied every field out of the answer before decoding it, and reached each of
 * its own fields through a WeakMap (its private fields, compiled down), 1.6 ms of the main thread per recall.
 */
export function textRows(
  data: Uint8Array,
  parse: (text: string, dataTypeID: number) => unknown,
): Record<string, unknown>[] | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let columns: { name: string; dataTypeID: number }[] = [];
  const rows: Record<string, unknown>[] = [];
  for (const { type, start } of backendMessages(data)) {
    if (type === ERROR_RESPONSE) return undefined;
    // Both bodies start with their number of columns (2 bytes), after the type and length (5 bytes).
    if (type === ROW_DESCRIPTION) {
      columns = [];
      let at = start + 7;
      for (let i = view.getInt16(start + 5); i > 0; i--) {
        const nameEnd = data.indexOf(0, at);
        const name = utf8.decode(data.subarray(at, nameEnd));
        // After the name: table OID (4), column number (2), type OID (4), type size (2), modifier (4), format (2).
        columns.push({ name, dataTypeID: view.getInt32(nameEnd + 7) });
        at = nameEnd + 19;
      }
    } else if (type === DATA_ROW) {
      const row: Record<string, unknown> = {};
      let at = start + 7;
      for (const column of columns) {
        const length = view.getInt32(at);
        at += 4;
        row[column.name] = length === -1 ? null : parse(utf8.decode(data.subarray(at, at + length)), column.dataTypeID);
        if (length > 0) at += length;
      }
      rows.push(row);
    }
  }
  return rows;
}

/** Several protocol messages as one buffer, sent to the database in one exchange. */
export function joined(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  parts.reduce((offset, part) => (message.set(part, offset), offset + part.length), 0);
  return message;
}

/** The error PGlite's own query() throws: the server's, with the statement that caused it. */
export function statementError(messages: BackendMessage[], query: string, params?: unknown[], options?: QueryOptions) {
  const error = messages.find((message) => message instanceof protocol.messages.DatabaseError) as
    (DatabaseError & { query?: string; params?: unknown[]; queryOptions?: QueryOptions }) | undefined;
  if (!error) return undefined;
  return Object.assign(error, { query, params, queryOptions: options });
}
