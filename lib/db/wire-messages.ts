// The PostgreSQL wire protocol as PGliteThread (lib/db/pglite-thread.ts) speaks it, beside PGlite's serializer and
// parser: messages joined for one exchange, answers walked without parsing them, a Bind amended, errors named.
import { protocol, type QueryOptions } from "@electric-sql/pglite";

export type BackendMessage = Parameters<Parameters<InstanceType<typeof protocol.Parser>["parse"]>[1]>[0];
type DatabaseError = InstanceType<typeof protocol.messages.DatabaseError>;

/** The first byte of the backend messages PGliteThread looks for (PostgreSQL's protocol, §55.7). */
export const DATA_ROW = "D".charCodeAt(0);
export const ERROR_RESPONSE = "E".charCodeAt(0);
export const PARSE_COMPLETE = "1".charCodeAt(0);

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
