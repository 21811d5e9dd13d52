// `node bench/object-copies.mjs`: what copying a search candidate costs in this Node's V8, by how it is copied.
// Search copies its candidates step by step (lib/memory/search/ranking.ts: `{ ...m, score }`); this prints the CPU
// time of one copy of a candidate-sized object (15 fields, as search-steps.ts's Ranked) when the copy only
// overwrites fields, when it adds them, and by the other ways of copying; and of turning the lexical statement's
// 50 hits (JSON, 20 with their rows) into objects by object rest and spread, and field by field
// (lib/memory/search/lexical-leg.ts, hitOf). On Node 20 a copy that adds a field is 20 to 50 times slower than one
// that only overwrites: V8 leaves its fast path for object literals with a spread.
import os from "node:os";

console.log(`${os.cpus()[0]?.model.trim()}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`);

/** Microseconds of CPU per call of `run(item)` over `items`, after a warming pass (the JIT's). */
function microseconds(items, run, rounds = 20_000) {
  let sink = 0;
  for (let i = 0; i < rounds / 4; i++) for (const item of items) sink += run(item) ? 1 : 0;
  const start = process.cpuUsage();
  for (let i = 0; i < rounds; i++) for (const item of items) sink += run(item) ? 1 : 0;
  const used = process.cpuUsage(start);
  if (sink < 0) console.log(sink);
  return (used.user + used.system) / rounds / items.length;
}

const candidates = Array.from({ length: 100 }, (_, i) => ({
  chunkId: `chk_${i}`,
  memoryId: `mem_${i}`,
  sessionId: null,
  position: null,
  role: null,
  bm25: i / 7,
  bm25Exact: true,
  terms: ["harbor"],
  cosine: 0.5,
  cosineKnown: true,
  score: i / 100,
  ownScore: i / 100,
  neighbourGain: 0,
  borrowedEvidence: false,
  entityGain: 0,
}));
const unscored = candidates.map(({ chunkId, memoryId, sessionId, position, role, bm25, bm25Exact, terms, cosine }) => ({
  chunkId,
  memoryId,
  sessionId,
  position,
  role,
  bm25,
  bm25Exact,
  terms,
  cosine,
  cosineKnown: true,
}));

const copies = {
  "spread, overwriting one field": [candidates, (m) => ({ ...m, score: m.score / 2 })],
  "spread, adding one field": [unscored, (m) => ({ ...m, score: m.bm25 })],
  "spread, adding five fields": [
    unscored,
    (m) => ({ ...m, score: m.bm25, ownScore: m.bm25, neighbourGain: 0, borrowedEvidence: false, entityGain: 0 }),
  ],
  "Object.assign, adding five fields": [
    unscored,
    (m) =>
      Object.assign({}, m, { score: m.bm25, ownScore: 0, neighbourGain: 0, borrowedEvidence: false, entityGain: 0 }),
  ],
  "field by field, adding five fields": [
    unscored,
    (m) => ({
      chunkId: m.chunkId,
      memoryId: m.memoryId,
      sessionId: m.sessionId,
      position: m.position,
      role: m.role,
      bm25: m.bm25,
      bm25Exact: m.bm25Exact,
      terms: m.terms,
      cosine: m.cosine,
      cosineKnown: m.cosineKnown,
      score: m.bm25,
      ownScore: m.bm25,
      neighbourGain: 0,
      borrowedEvidence: false,
      entityGain: 0,
    }),
  ],
};
console.log("\none copy of a candidate (15 fields), µs of CPU:");
for (const [name, [items, copy]] of Object.entries(copies))
  console.log(`  ${name.padEnd(36)} ${microseconds(items, copy).toFixed(3)}`);

// The lexical statement's hits as JSON sends them: 50, the best 20 with their rows.
const stamp = "2026-11-01T10:00:00.123+00:00";
const sent = JSON.stringify(
  Array.from({ length: 50 }, (_, i) => ({
    chunk_id: `chk_${i}`,
    bm25: 3 + i / 7,
    terms: "0110101",
    memory_id: `mem_${i}`,
    session_id: null,
    session_position: null,
    role: null,
    row:
      i < 20
        ? {
            content: "A memory of a few sentences. ".repeat(10),
            metadata: { source: "bench" },
            scopes: {},
            identity_id: null,
            occurred_at: stamp,
            created_at: stamp,
            valid_at: stamp,
            invalid_at: null,
            superseded_by: null,
            supersession_kind: null,
          }
        : null,
  })),
);
const queryTerms = ["a", "b", "c", "d", "e", "f", "g"];
const termsOfBits = (bits) => queryTerms.filter((_, i) => bits[i] === "1");
const dates = (rest) => ({
  occurred_at: new Date(rest.occurred_at),
  created_at: new Date(rest.created_at),
  valid_at: new Date(rest.valid_at),
  invalid_at: rest.invalid_at === null ? null : new Date(rest.invalid_at),
});
const hitReadings = {
  "JSON.parse alone": (text) => JSON.parse(text),
  "object rest and spread": (text) =>
    JSON.parse(text).map(({ terms, row: rest, ...hit }) => ({
      ...hit,
      terms: termsOfBits(terms),
      row: rest && {
        ...rest,
        id: hit.chunk_id,
        memory_id: hit.memory_id,
        session_id: hit.session_id,
        session_position: hit.session_position,
        role: hit.role,
        ...dates(rest),
      },
    })),
  "field by field": (text) =>
    JSON.parse(text).map((hit) => {
      const rest = hit.row;
      return {
        chunk_id: hit.chunk_id,
        bm25: hit.bm25,
        terms: termsOfBits(hit.terms),
        memory_id: hit.memory_id,
        session_id: hit.session_id,
        session_position: hit.session_position,
        role: hit.role,
        row: rest && {
          id: hit.chunk_id,
          memory_id: hit.memory_id,
          content: rest.content,
          metadata: rest.metadata,
          scopes: rest.scopes,
          identity_id: rest.identity_id,
          session_id: hit.session_id,
          session_position: hit.session_position,
          role: hit.role,
          occurred_at: new Date(rest.occurred_at),
          created_at: new Date(rest.created_at),
          valid_at: new Date(rest.valid_at),
          invalid_at: rest.invalid_at === null ? null : new Date(rest.invalid_at),
          superseded_by: rest.superseded_by,
          supersession_kind: rest.supersession_kind,
        },
      };
    }),
};
console.log("\nthe lexical statement's 50 hits read into objects, µs of CPU per recall:");
for (const [name, read] of Object.entries(hitReadings))
  console.log(`  ${name.padEnd(36)} ${microseconds([sent], read, 4_000).toFixed(1)}`);
