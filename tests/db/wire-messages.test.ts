import { protocol } from "@electric-sql/pglite";
import { expect, test } from "vitest";
import { bindMessage } from "@/lib/db/wire-messages";
import { getDatabase } from "@/lib/db";

const values = [
  "plain",
  null,
  "",
  "Zoë met 李雷 in Kraków 🚲",
  new Uint8Array([0, 1, 254, 255]),
  "x".repeat(70_000),
  '{"a","b\\"c"}',
  // Written as given: PostgreSQL refuses a NUL in text with an error naming it (below), as with PGlite's bytes.
  "nul\u0000inside",
];

test("a Bind message has the bytes PGlite's serializer writes, for text, null, empty, non-ASCII and bytes", () => {
  for (const [statement, sent] of [
    ["memgw_kept_7", values],
    ["", []],
    ["ünïcode_name", [null, null]],
  ] as const) {
    expect(new Uint8Array(bindMessage(statement, sent))).toEqual(
      protocol.serialize.bind({ statement, values: [...sent] }),
    );
  }
});

test("with binary results, the message asks for one format for every column: binary (1 code, 1)", () => {
  const text = protocol.serialize.bind({ statement: "memgw_kept_3", values: ["a", null] });
  const binary = bindMessage("memgw_kept_3", ["a", null], true);
  // The same message, with its length 2 more and the result formats' count 1 (it was 0) followed by the code 1.
  expect(binary.length).toBe(text.length + 2);
  expect(new DataView(binary.buffer).getInt32(1)).toBe(new DataView(text.buffer).getInt32(1) + 2);
  expect([...binary.subarray(5, text.length - 2)]).toEqual([...text.subarray(5, text.length - 2)]);
  expect([...binary.subarray(text.length - 2)]).toEqual([0, 1, 0, 1]);
});

test("the embedded database reads the parameters as sent: text, nulls, non-ASCII and bytes round-trip", async () => {
  const database = await getDatabase();
  const [row] = await database.queryRows<{ a: string; b: string | null; c: string; d: string; e: number }>(
    `SELECT $1::text AS a, $2::text AS b, $3::text AS c, encode($4::bytea, 'hex') AS d, length($5::text) AS e`,
    ["plain", null, "Zoë met 李雷 in Kraków 🚲", new Uint8Array([0, 1, 254, 255]), "x".repeat(70_000)],
  );
  expect(row).toEqual({ a: "plain", b: null, c: "Zoë met 李雷 in Kraków 🚲", d: "0001feff", e: 70_000 });
  await expect(database.queryRows(`SELECT $1::text AS a`, ["nul\u0000inside"])).rejects.toThrow(/0x00/);
});
