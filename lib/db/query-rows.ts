import { protocol, type PGlite } from "@electric-sql/pglite";
import { noteStatement } from "./access-cache";

type RowDescription = InstanceType<typeof protocol.messages.RowDescriptionMessage>;
type DataRow = InstanceType<typeof protocol.messages.DataRowMessage>;

// A statement sent straight to the driver, not through Prisma: recall's statements are built as SQL text
// anyway, and Prisma's raw query adds about 0.9 ms of JavaScript to each (its argument and result
// conversions); PGlite's own query() makes six calls into the WebAssembly module where one does (parse,
// describe, bind, describe, execute, sync). Measured through lib/ on 10,000 memories: the lexical leg
// 5.6 → 4.9 ms, the vector leg 3.7 → 2.6 ms, on this thread, which the embedded database shares with Next.

/**
 * A parameter as PostgreSQL's text format writes it, its type left to the statement (as PGlite and
 * node-postgres leave it): an array as an array literal, every element quoted; an object as JSON.
 */
export function textParameter(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(",")}}`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function arrayElement(value: unknown): string {
  const text = textParameter(value);
  return text === null ? "NULL" : `"${text.replace(/["\\]/g, (character) => `\\${character}`)}"`;
}

/**
 * The rows of one statement on PGlite, in one call into the module, each column parsed as PGlite's query()
 * parses it. It waits, as query() does, for a transaction in progress to end, and the access cache's
 * watcher sees it as it sees Prisma's statements. (query() also syncs the file system after a statement:
 * a no-op on Node's.)
 */
export async function pgliteRows<Row>(pglite: PGlite, sql: string, params: unknown[]): Promise<Row[]> {
  noteStatement(sql);
  const parts = [
    protocol.serialize.parse({ text: sql }),
    protocol.serialize.bind({ values: params.map(textParameter) as string[] }),
    protocol.serialize.describe({ type: "P" }),
    protocol.serialize.execute({}),
    protocol.serialize.sync(),
  ];
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  parts.reduce((offset, part) => (message.set(part, offset), offset + part.length), 0);
  const { messages } = await pglite._runExclusiveTransaction(() =>
    pglite.runExclusive(() => pglite.execProtocol(message, { syncToFs: false })),
  );
  let columns: { name: string; parse: (text: string) => unknown }[] = [];
  const rows: Row[] = [];
  for (const reply of messages) {
    if (reply.name === "rowDescription") {
      columns = (reply as RowDescription).fields.map((field) => {
        const parser = pglite.parsers[field.dataTypeID];
        return { name: field.name, parse: parser ? (text) => parser(text, field.dataTypeID) : (text) => text };
      });
    } else if (reply.name === "dataRow") {
      const row: Record<string, unknown> = {};
      (reply as DataRow).fields.forEach(
        (text, i) => (row[columns[i].name] = text === null ? null : columns[i].parse(text)),
      );
      rows.push(row as Row);
    }
  }
  return rows;
}
