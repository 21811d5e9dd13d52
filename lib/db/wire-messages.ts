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

/**
 * A Bind message asking for every result column in binary format. PGlite's serializer has a `binary` option, but
 * writes its format code where the number of codes goes (PostgreSQL then reads one code more than was sent:
 * "insufficient data left in message"); a Bind without it ends in that number, 0 (all text): it becomes 1 code, 1.
 */
export function withBinaryResults(bind: Uint8Array): Uint8Array {
  const message = new Uint8Array(bind.length + 2);
  message.set(bind);
  const view = new DataView(message.buffer);
  view.setInt32(1, view.getInt32(1) + 2);
  view.setInt16(bind.length - 2, 1);
  view.setInt16(bind.length, 1);
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
