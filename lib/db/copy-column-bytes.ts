// Database.columnBytes on PostgreSQL: the rows of a statement through COPY in binary format, so that a bytea
// arrives as its bytes. node-postgres reads every field of a row as text (it has no binary mode): a 2 MiB read
// of an original's parts came as 4 MiB of hex, decoded to a string and then to bytes on the main thread, 2.3 s
// of its 6.7 s while 8 downloads of 50 MiB ran, and another organization's remember waited behind it.
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";

/** What PostgreSQL's binary COPY output starts with (its §COPY "Binary Format"): the signature, then flags. */
const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/**
 * The first column of each row of `sql` (a SELECT whose first column is a bytea; `$1`… its parameters, as
 * `Prisma.sql` writes them, and no `$` elsewhere), in its order, as bytes; a null as no bytes. COPY takes no
 * parameters: each is written into the statement as a quoted literal (strings and numbers only; anything else
 * is refused, never guessed).
 */
export async function copyColumnBytes(pool: pg.Pool, sql: string, params: unknown[]): Promise<Uint8Array[]> {
  const client = await pool.connect();
  try {
    const text = sql.replace(/\$(\d+)/g, (_, n: string) => literal(client, params[Number(n) - 1]));
    const chunks: Buffer[] = [];
    for await (const chunk of client.query(copyTo(`COPY (${text}) TO STDOUT (FORMAT binary)`))) {
      chunks.push(chunk as Buffer);
    }
    return firstColumn(Buffer.concat(chunks));
  } finally {
    client.release();
  }
}

function literal(client: pg.PoolClient, value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") {
    return client.escapeLiteral(String(value));
  }
  throw new TypeError(`copyColumnBytes takes strings and numbers as parameters, not ${typeof value}`);
}

/** The first field of each tuple of binary COPY output (header, tuples, then a field count of -1). */
function firstColumn(data: Buffer): Uint8Array[] {
  if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new Error("Binary COPY output did not start with its PGCOPY signature: not binary COPY output.");
  // The flags (4 bytes), then the header extension's length (4 bytes) and the extension.
  let offset = SIGNATURE.length + 4;
  offset += 4 + data.readInt32BE(offset);
  const values: Uint8Array[] = [];
  for (;;) {
    const fields = data.readInt16BE(offset);
    offset += 2;
    if (fields === -1) return values;
    for (let field = 0; field < fields; field++) {
      const length = data.readInt32BE(offset);
      offset += 4;
      if (field === 0) values.push(length === -1 ? new Uint8Array(0) : data.subarray(offset, offset + length));
      if (length > 0) offset += length;
    }
  }
}
