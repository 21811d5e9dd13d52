// `node --import tsx bench/schema-parse.ts`: what checking a recall's body and answer against the operation's schemas
// costs (lib/operations/run.ts), interpreted by zod and compiled (`z.compile`), in microseconds of CPU per parse. The
// answer is ten matches shaped as a SciFact recall's (entities, match reasons, empty metadata and scopes). "Fresh"
// parses a new copy each time, as the server does: its answer was just built, and its objects are not the ones the
// parser last saw; "again" parses the same objects over and over, as a micro-benchmark usually does.
import os from "node:os";
import { z } from "zod";
import { RecallBody } from "@/lib/memory/common/schemas";
import { operations } from "@/lib/operations/catalogue";

console.log(`${os.cpus()[0]?.model.trim()}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`);

const at = "2026-11-29T10:00:00.000Z";
const match = (i: number) => ({
  memory_id: `mem_${i}aaaaaaaaaaaaaaaaaaaa`,
  chunk_id: `chk_${i}aaaaaaaaaaaaaaaaaaaa`,
  content: "Bone marrow cells differentiate into hepatocytes after transplantation. ".repeat(4 + (i % 4)),
  score: 0.9 - i / 20,
  metadata: {},
  scopes: {},
  identity_id: null,
  session_id: null,
  position: null,
  role: null,
  occurred_at: at,
  created_at: at,
  valid_at: at,
  invalid_at: null,
  superseded_by: null,
  context: [],
  document: null,
  match_reasons: { terms: ["marrow", "cells"], similarity: 0.61, via: "words and meaning" as const },
  entities: Array.from({ length: i % 5 }, (_, j) => ({ id: `ent_${i}_${j}`, kind: "other" as const, name: `N ${j}` })),
});
const answer = Array.from({ length: 10 }, (_, i) => match(i));
const body = { namespace_id: "ns_UTcHFZ8PEvDJyvcUpVPt9g", query: "What do bone marrow cells become?", top_k: 10 };

/** Microseconds of CPU per parse of `value` (a new deep copy each time with `fresh`), after a warming pass. */
function microseconds(schema: z.ZodType, value: unknown, fresh: boolean, rounds = 4_000): number {
  const copies = fresh ? Array.from({ length: rounds }, () => structuredClone(value)) : [];
  for (let i = 0; i < rounds / 4; i++) schema.parse(value);
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) schema.parse(fresh ? copies[i] : value);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / rounds;
}

const parses: [string, z.ZodType, unknown][] = [
  ["recall's answer (10 matches)", operations.recall.response, answer],
  ["recall's body", RecallBody, body],
];
for (const [name, schema, value] of parses) {
  const compiled = z.compile(schema);
  const same = JSON.stringify(compiled.parse(value)) === JSON.stringify(schema.parse(value));
  if (!same) throw new Error(`${name}: the compiled schema's output differs from the schema's`);
  const figures = [schema, compiled].flatMap((s) => [false, true].map((fresh) => microseconds(s, value, fresh)));
  const [interpreted, interpretedFresh, fast, fastFresh] = figures.map((f) => f.toFixed(1).padStart(6));
  console.log(`${name}: interpreted ${interpreted} µs again, ${interpretedFresh} µs fresh;`);
  console.log(`${" ".repeat(name.length)}  compiled    ${fast} µs again, ${fastFresh} µs fresh`);
}
