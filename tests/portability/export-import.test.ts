// GET /namespaces/{id}/export and POST /namespaces/{id}/import (and `npx memgw export|import`): the NDJSON
// round trip is lossless field by field, import is validated first and all or nothing, scopes bound both.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { serveAdminCommands } from "@/lib/admin/socket";
import { closeDatabase, db, getDatabase } from "@/lib/db";
import { PayloadTooLargeError } from "@/lib/errors";
import { ndjsonLines } from "@/lib/http/ndjson";
import { embedder } from "@/lib/memory/embeddings";
import { EMBEDDING_DIMENSIONS } from "@/lib/memory/embeddings/provider";
import { api, routeRequest } from "../helpers/api";
import { memgw } from "../helpers/cli";
import { createKey, createNamespace, createTenant } from "../helpers/fixtures";
import { recallContents, storedCounts, termStatisticsConsistent } from "../helpers/memory";
import { Prisma } from "@/lib/generated/prisma/client";

afterEach(() => {
  vi.restoreAllMocks();
});

type Line = Record<string, any>;

/** The export's lines, parsed (and the raw response, for what the transport says). */
async function exportLines(key: string, namespaceId: string, query = "") {
  const response = await routeRequest(
    new Request(`http://gateway.test/api/v1/namespaces/${namespaceId}/export${query}`, {
      headers: { authorization: `Bearer ${key}` },
    }),
  );
  const text = await response.text();
  const lines: Line[] = response.ok
    ? text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line))
    : [];
  return { response, text, lines, body: response.ok ? undefined : JSON.parse(text) };
}

function importBody(lines: (Line | string)[]) {
  return lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") + "\n";
}

async function importLines(key: string, namespaceId: string, body: string) {
  return api("POST", `/namespaces/${namespaceId}/import`, {
    key,
    rawBody: body,
    headers: { "content-type": "application/x-ndjson" },
  });
}

async function remember(key: string, body: Record<string, unknown>) {
  const response = await api("POST", "/remember", { key, body });
  if (response.status !== 201) throw new Error(`remember failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** Everything of a memory line but its id (import mints new ones) and its vectors. */
function withoutId({ id: _id, chunks: _chunks, ...line }: Line) {
  return line;
}

/**
 * Memory lines in an order that survives the new ids: the export orders by created_at then id, and
 * memories stored by one request share their created_at.
 */
function canonical(lines: Line[]) {
  const key = (line: Line) => JSON.stringify([line.created_at, line.session_id, line.position, line.content]);
  return [...lines].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** A namespace with every kind of field: plain memories, a conversation, expiry, scopes, an updated memory. */
async function richNamespace(key: string) {
  const ns = await createNamespace(key, { description: "everything", external_reference_id: `crm-${Date.now()}` });
  const plain = await remember(key, {
    namespace_id: ns.id,
    content: "Ada prefers green tea in the morning and coffee after lunch.",
    metadata: { source: "chat", turn: 3, pinned: true, note: null },
    scopes: { team: "sales" },
    identity_id: "user-42",
    occurred_at: "2024-03-01T09:30:00.000Z",
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await remember(key, {
    namespace_id: ns.id,
    session_id: "trip-planning",
    identity_id: "user-42",
    messages: [
      { role: "user", content: "I am flying to Lisbon next month.", occurred_at: "2024-05-07T13:56:00Z" },
      { role: "assistant", content: "Lisbon is lovely in June; book the tram tour early." },
      { role: "user", content: "My sister Maria is coming with me.", metadata: { mood: "happy" } },
    ],
  });
  const long = await remember(key, {
    namespace_id: ns.id,
    content: "The quarterly sales meeting is on Thursday at 10am in room 4B. ".repeat(60),
  });
  const patched = await api("PATCH", `/memories/${plain.id}`, {
    key,
    body: { content: "Ada prefers jasmine tea in the morning and coffee after lunch.", metadata: { source: "crm" } },
  });
  expect(patched.status).toBe(200);
  expect(patched.body.data.version).toBe(2);
  return { ns, plainId: plain.id, longId: long.id };
}

describe("export", () => {
  test("streams a header and one line per memory with every field and its history", async () => {
    const { key } = await createTenant();
    const { ns, plainId } = await richNamespace(key);
    const { response, lines } = await exportLines(key, ns.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(response.headers.get("content-disposition")).toContain(`${ns.id}.ndjson`);
    const [header, ...memories] = lines;
    expect(header).toEqual({
      type: "header",
      format: "memory-gateway-export",
      version: 1,
      exported_at: expect.any(String),
      namespace: {
        id: ns.id,
        name: ns.name,
        description: "everything",
        external_reference_id: ns.external_reference_id,
      },
      embedding_model: embedder().model,
      vectors: false,
      scopes: {},
    });
    expect(memories).toHaveLength(5);
    const plain = memories.find((line) => line.id === plainId)!;
    const stored = (await api("GET", `/memories/${plainId}`, { key })).body.data;
    expect(plain).toEqual({
      type: "memory",
      id: plainId,
      content: "Ada prefers jasmine tea in the morning and coffee after lunch.",
      metadata: { source: "crm" },
      scopes: { team: "sales" },
      identity_id: "user-42",
      session_id: null,
      position: null,
      role: null,
      occurred_at: "2024-03-01T09:30:00.000Z",
      created_at: stored.created_at,
      updated_at: stored.updated_at,
      expires_at: stored.expires_at,
      valid_at: "2024-03-01T09:30:00.000Z",
      invalid_at: null,
      superseded_by: null,
      supersession: null,
      fact_key: null,
      kind: "memory",
      derived_from: [],
      version: 2,
      history: (await api("GET", `/memories/${plainId}/history`, { key })).body.data,
      embedding_model: embedder().model,
    });
    expect(plain.history.map((v: Line) => v.content)).toEqual([
      "Ada prefers jasmine tea in the morning and coffee after lunch.",
      "Ada prefers green tea in the morning and coffee after lunch.",
    ]);
    const turns = canonical(memories.filter((line) => line.session_id === "trip-planning"));
    expect(turns.map((t) => [t.position, t.role])).toEqual([
      [0, "user"],
      [1, "assistant"],
      [2, "user"],
    ]);
    expect(turns[0].occurred_at).toBe("2024-05-07T13:56:00.000Z");
  });

  test("with include_vectors, each memory line carries its chunks' text and vectors", async () => {
    const { key } = await createTenant();
    const { ns, longId } = await richNamespace(key);
    const { lines } = await exportLines(key, ns.id, "?include_vectors=true");
    expect(lines[0].vectors).toBe(true);
    const long = lines.find((line) => line.id === longId)!;
    expect(long.chunks.length).toBeGreaterThan(1);
    expect(long.chunks.map((c: Line) => c.position)).toEqual(long.chunks.map((_: Line, i: number) => i));
    for (const chunk of long.chunks) {
      expect(chunk.vector).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(long.content).toContain(chunk.content.trim().slice(0, 40));
    }
    expect((await exportLines(key, ns.id, "?include_vectors=maybe")).response.status).toBe(400);
  });

  test("a conversation's turns are exported in their order, across pages too, for an import to replay", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const before = await remember(key, { namespace_id: ns.id, content: "A note stored before the chat." });
    // 30 turns stored by one call share created_at; with vectors a page holds 25 memories, so the
    // conversation runs across a page boundary.
    const messages = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `Turn ${i} of the chat about the garden shed.`,
    }));
    await remember(key, { namespace_id: ns.id, session_id: "chat-order", messages });
    const after = await remember(key, { namespace_id: ns.id, content: "A note stored after the chat." });
    for (const query of ["", "?include_vectors=true"]) {
      const { lines } = await exportLines(key, ns.id, query);
      const memories = lines.slice(1);
      expect(memories[0].id, query).toBe(before.id);
      expect(memories.at(-1)!.id, query).toBe(after.id);
      const turns = memories.filter((line) => line.session_id === "chat-order");
      expect(
        turns.map((line) => [line.position, line.content]),
        query,
      ).toEqual(messages.map((message, i) => [i, message.content]));
    }
  });

  test("expired memories are not exported", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const kept = await remember(key, { namespace_id: ns.id, content: "This one stays." });
    const gone = await remember(key, { namespace_id: ns.id, content: "This one expires.", ttl_seconds: 3600 });
    await (
      await db()
    ).$executeRaw(Prisma.sql`UPDATE memories SET expires_at = now() - interval '1 second' WHERE id = ${gone.id}`);
    const { lines } = await exportLines(key, ns.id);
    expect(lines.slice(1).map((line) => line.id)).toEqual([kept.id]);
  });

  test("is a stream read a page at a time, not one string built whole (a few thousand memories)", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const count = 3_000;
    const imported = await importLines(
      key,
      ns.id,
      importBody([header(), ...Array.from({ length: count }, (_, i) => memoryLine(i, true))]),
    );
    expect(imported.status).toBe(201);
    expect(imported.body.data.imported).toBe(count);

    const response = await routeRequest(
      new Request(`http://gateway.test/api/v1/namespaces/${ns.id}/export`, {
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toBeInstanceOf(ReadableStream);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let reads = 0;
    let largestRead = 0;
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      largestRead = Math.max(largestRead, value.byteLength);
      text += decoder.decode(value, { stream: true });
    }
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(count + 1);
    // Produced as read: many small pieces, none of them the whole export.
    expect(reads).toBeGreaterThan(count / 2);
    expect(largestRead).toBeLessThan(text.length / 100);
    expect(new Set(lines.slice(1).map((line) => JSON.parse(line).content)).size).toBe(count);
  }, 180_000);
});

function header(overrides: Line = {}): Line {
  return {
    type: "header",
    format: "memory-gateway-export",
    version: 1,
    exported_at: "2025-01-01T00:00:00.000Z",
    namespace: { id: "ns_elsewhere", name: "elsewhere", description: null, external_reference_id: null },
    embedding_model: embedder().model,
    vectors: true,
    scopes: {},
    ...overrides,
  };
}

/** A unit vector pointing mostly along one axis: a stand-in vector of the current model's dimensions. */
function unitVector(axis: number) {
  const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, () => 0);
  vector[axis % EMBEDDING_DIMENSIONS] = 1;
  return vector;
}

function memoryLine(i: number, vectors = false, overrides: Line = {}): Line {
  const content = `Imported fact number ${i}: the parcel ${i} left the depot on time.`;
  return {
    type: "memory",
    id: `mem_old_${i}`,
    content,
    metadata: { n: i },
    scopes: {},
    identity_id: null,
    session_id: null,
    position: null,
    role: null,
    occurred_at: "2024-01-01T00:00:00.000Z",
    created_at: "2024-01-02T00:00:00.000Z",
    updated_at: "2024-01-02T00:00:00.000Z",
    expires_at: null,
    version: 1,
    history: [],
    embedding_model: embedder().model,
    ...(vectors && { chunks: [{ position: 0, content, vector: unitVector(i) }] }),
    ...overrides,
  };
}

describe("import", () => {
  test("round trip: every field of every memory comes back, history and model tag included", async () => {
    const { key } = await createTenant();
    const { ns } = await richNamespace(key);
    const source = await exportLines(key, ns.id);
    const target = await createNamespace(key);
    const imported = await importLines(key, target.id, source.text);
    expect(imported.status).toBe(201);
    expect(imported.body.data).toEqual({
      imported: 5,
      skipped_expired: 0,
      memory_ids: expect.any(Array),
      document_ids: [],
    });
    const copy = await exportLines(key, target.id);
    // memory_ids follow the lines of the import's body.
    const byId = new Map(copy.lines.slice(1).map((line) => [line.id, line]));
    expect(imported.body.data.memory_ids.map((id: string) => byId.get(id)?.content)).toEqual(
      source.lines.slice(1).map((line) => line.content),
    );
    const [sourceMemories, copyMemories] = [canonical(source.lines.slice(1)), canonical(copy.lines.slice(1))];
    expect(copyMemories.map((line) => line.id)).not.toContain(sourceMemories[0].id);
    for (const [index, original] of sourceMemories.entries()) {
      const copied = copyMemories[index];
      for (const field of [
        "content",
        "metadata",
        "scopes",
        "identity_id",
        "session_id",
        "position",
        "role",
        "occurred_at",
        "created_at",
        "updated_at",
        "expires_at",
        "version",
        "history",
        "embedding_model",
      ]) {
        expect({ field, value: copied[field] }).toEqual({ field, value: original[field] });
      }
    }
    expect(copyMemories.map(withoutId)).toEqual(sourceMemories.map(withoutId));
    // Found by recall, history readable, counted in the BM25 statistics like any memory.
    expect(await recallContents(key, { namespace_id: target.id, query: "jasmine tea" })).toContain(
      "Ada prefers jasmine tea in the morning and coffee after lunch.",
    );
    const copiedPlain = copyMemories.find((line) => line.version === 2)!;
    const history = await api("GET", `/memories/${copiedPlain.id}/history`, { key });
    expect(history.body.data.map((v: Line) => v.version)).toEqual([2, 1]);
    expect(await termStatisticsConsistent(target.id)).toBe(true);
    // Appending to the imported conversation continues after its last turn.
    const appended = await remember(key, {
      namespace_id: target.id,
      session_id: "trip-planning",
      messages: [{ role: "user", content: "We land at noon." }],
    });
    expect(appended[0].position).toBe(3);
  });

  test("with vectors of the current model, they are reused: nothing is embedded again", async () => {
    const { key } = await createTenant();
    const { ns } = await richNamespace(key);
    const source = await exportLines(key, ns.id, "?include_vectors=true");
    const target = await createNamespace(key);
    const embed = vi.spyOn(embedder(), "embed");
    const imported = await importLines(key, target.id, source.text);
    expect(imported.status).toBe(201);
    expect(embed.mock.calls.filter(([, priority]) => priority === "ingest")).toEqual([]);
    const copy = await exportLines(key, target.id, "?include_vectors=true");
    const [sourceMemories, copyMemories] = [canonical(source.lines.slice(1)), canonical(copy.lines.slice(1))];
    expect(copyMemories.map((line) => line.chunks)).toEqual(sourceMemories.map((line) => line.chunks));
    expect(copyMemories.map(withoutId)).toEqual(sourceMemories.map(withoutId));
    expect(await recallContents(key, { namespace_id: target.id, query: "who is coming to Lisbon" })).toContain(
      "My sister Maria is coming with me.",
    );
  });

  test("vectors of another model, or none, are embedded again with the current one", async () => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    const embed = vi.spyOn(embedder(), "embed");
    const body = importBody([
      header({ embedding_model: "some-other-model" }),
      memoryLine(1, true, { embedding_model: "some-other-model" }),
      memoryLine(2, false),
    ]);
    const imported = await importLines(key, target.id, body);
    expect(imported.status).toBe(201);
    const ingested = embed.mock.calls.filter(([, priority]) => priority === "ingest").flatMap(([texts]) => texts);
    expect(ingested).toEqual([memoryLine(1).content, memoryLine(2).content]);
    const [row] = await (
      await db()
    ).$queryRaw<{ models: string[] }[]>(
      Prisma.sql`SELECT array_agg(DISTINCT embedding_model) AS models FROM memory_chunks WHERE namespace_id =
          ${target.id}`,
    );
    expect(row.models).toEqual([embedder().model]);
  });

  test.each([
    ["bad JSON", "{not json"],
    ["a bad field", JSON.stringify(memoryLine(56, false, { content: "   " }))],
    ["a bad timestamp", JSON.stringify(memoryLine(56, false, { occurred_at: "yesterday" }))],
    ["an unknown field", JSON.stringify({ ...memoryLine(56), colour: "red" })],
    [
      "a vector that is not of unit length",
      JSON.stringify(
        memoryLine(56, true, { chunks: [{ position: 0, content: "x", vector: unitVector(3).map((v) => v * 50) }] }),
      ),
    ],
    [
      "a vector of the wrong size",
      JSON.stringify(memoryLine(56, true, { chunks: [{ position: 0, content: "x", vector: [1, 2] }] })),
    ],
  ])("line 57 of 100 with %s: 400 naming the line, nothing imported", async (_, corrupted) => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    await remember(key, { namespace_id: target.id, content: "Already here before the import." });
    const before = await storedCounts(target.id);
    const lines: (Line | string)[] = [header(), ...Array.from({ length: 99 }, (_, i) => memoryLine(i))];
    lines[56] = corrupted;
    const response = await importLines(key, target.id, importBody(lines));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("BAD_REQUEST");
    expect(response.body.error.message).toMatch(/^Line 57\b/);
    expect(response.body.error.details?.[0]?.field ?? "").toMatch(/^line\.57\b/);
    expect(await storedCounts(target.id)).toEqual(before);
  });

  test("a failure midway removes everything the import had written", async () => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    const before = await storedCounts(target.id);
    const real = embedder().embed.bind(embedder());
    let calls = 0;
    vi.spyOn(embedder(), "embed").mockImplementation(async (texts, priority, requester) => {
      if (priority === "ingest" && ++calls === 3) throw new Error("the embedding model went away");
      return real(texts, priority, requester);
    });
    // 40 memories of 1 chunk each: written 32 per transaction, the second group fails.
    const long = "A longer fact that fills a chunk of its own. ".repeat(30);
    const lines = Array.from({ length: 100 }, (_, i) => memoryLine(i, false, { content: `${i}: ${long}` }));
    const response = await importLines(key, target.id, importBody([header(), ...lines]));
    expect(response.status).toBe(500);
    expect(calls).toBe(3);
    const after = await storedCounts(target.id);
    expect({ ...after, stats_chunks: after.stats_chunks ?? 0 }).toEqual({ ...before, stats_chunks: 0 });
    expect(await termStatisticsConsistent(target.id)).toBe(true);
  });

  test("the first line must be an export's header, of a version this server reads", async () => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    for (const body of [
      importBody([memoryLine(1)]),
      importBody([header({ version: 2 }), memoryLine(1)]),
      importBody([header({ format: "someone-elses" })]),
      "",
      "\n\n",
    ]) {
      const response = await importLines(key, target.id, body);
      expect(response.status).toBe(400);
    }
    const wrongType = await api("POST", `/namespaces/${target.id}/import`, { key, body: { memories: [] } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain("application/x-ndjson");
    expect((await storedCounts(target.id)).memories).toBe(0);
  });

  test("an author is kept only when of the importing organization; another's is imported as not recorded", async () => {
    const own = await createTenant("Importer");
    const other = await createTenant("Elsewhere");
    const version = (changedBy: Line | null, v = 2) => ({
      version: v,
      content: `version ${v}`,
      metadata: {},
      scopes: {},
      identity_id: null,
      occurred_at: "2024-01-01T00:00:00.000Z",
      expires_at: null,
      changed_fields: v === 1 ? [] : ["content"],
      changed_by: changedBy,
      changed_at: "2024-01-02T00:00:00.000Z",
    });
    const line = (i: number, current: Line | null, earlier: Line | null) =>
      memoryLine(i, false, {
        content: `version 2 of ${i}`,
        version: 2,
        history: [{ ...version(current), content: `version 2 of ${i}` }, version(earlier, 1)],
      });
    const target = await createNamespace(own.key);
    const response = await importLines(
      own.key,
      target.id,
      importBody([
        header(),
        line(
          1,
          { kind: "api_key", id: own.keyId, name: "Importer admin key" },
          { kind: "api_key", id: other.keyId, name: "theirs" },
        ),
        line(2, { kind: "user", id: "usr_notAMemberHere", name: "someone@elsewhere.example" }, null),
        line(3, { kind: "integration", id: null, name: "github" }, { kind: "api_key", id: own.keyId, name: "mine" }),
      ]),
    );
    expect(response.status).toBe(201);
    const authors = new Map<string, unknown[]>();
    for (const id of response.body.data.memory_ids as string[]) {
      const history = await api("GET", `/memories/${id}/history`, { key: own.key });
      authors.set(
        history.body.data[0].content,
        history.body.data.map((v: Line) => v.changed_by),
      );
    }
    // A current version without a recorded author reads as the key that stored it: here the importing one.
    const importer = { kind: "api_key", id: own.keyId, name: "Importer admin key" };
    expect(Object.fromEntries(authors)).toEqual({
      "version 2 of 1": [importer, null],
      "version 2 of 2": [importer, null],
      "version 2 of 3": [importer, { kind: "api_key", id: own.keyId, name: "mine" }],
    });
    // Nothing of the other organization's key is stored.
    const prisma = await db();
    const leaked = await prisma.$queryRaw<{ n: number }[]>(
      Prisma.sql`SELECT count(*)::int AS n FROM memory_versions WHERE author_id = ${other.keyId} OR author_name =
          'theirs'`,
    );
    expect(leaked[0].n).toBe(0);
  });

  test("two turns in one place (session and position) are refused: 400 naming the line, nothing stored", async () => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    const turn = (i: number, position: number, session = "s1") =>
      memoryLine(i, false, { session_id: session, position, role: "user" });
    const duplicate = await importLines(
      key,
      target.id,
      importBody([header(), turn(1, 0), turn(2, 1), turn(3, 0, "s2"), turn(4, 1)]),
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.success).toBe(false);
    expect(duplicate.body.error.message).toMatch(/^Line 5: session "s1" position 1 is taken: line 3 has it too/);
    expect(duplicate.body.error.details).toEqual([{ field: "line.5.position", message: expect.any(String) }]);
    expect((await storedCounts(target.id)).memories).toBe(0);
    // A place the namespace's own conversation holds already is refused the same way.
    await remember(key, { namespace_id: target.id, session_id: "s1", messages: [{ role: "user", content: "Hi." }] });
    const taken = await importLines(key, target.id, importBody([header(), turn(1, 5), turn(2, 0)]));
    expect(taken.status).toBe(400);
    expect(taken.body.error.message).toMatch(/^Line 3: session "s1" position 0 is taken: the namespace has a turn/);
    expect((await storedCounts(target.id)).memories).toBe(1);
  });

  test("expired lines are skipped; an empty export imports nothing", async () => {
    const { key } = await createTenant();
    const target = await createNamespace(key);
    const response = await importLines(
      key,
      target.id,
      importBody([header(), memoryLine(1), memoryLine(2, false, { expires_at: "2020-01-01T00:00:00.000Z" })]),
    );
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ imported: 1, skipped_expired: 1 });
    const empty = await importLines(key, target.id, importBody([header()]));
    expect(empty.body.data).toEqual({ imported: 0, skipped_expired: 0, memory_ids: [], document_ids: [] });
  });
});

describe("validity", () => {
  test("valid_at, invalid_at, fact_key and what replaced what come through a round trip", async () => {
    const { key } = await createTenant();
    const source = await createNamespace(key);
    const slot = { namespace_id: source.id, identity_id: "dana", fact_key: "home_city" };
    await remember(key, { ...slot, content: "Dana lives in Porto.", valid_at: "2024-03-10" });
    await remember(key, { ...slot, content: "Dana lives in Lisbon.", valid_at: "2026-02-14" });
    const exported = await exportLines(key, source.id);
    const target = await createNamespace(key);
    expect((await importLines(key, target.id, exported.text)).status).toBe(201);
    const again = (await exportLines(key, target.id)).lines.filter((line) => line.type === "memory");
    const byContent = (lines: Line[], content: string) => lines.find((line) => line.content === content)!;
    const porto = byContent(again, "Dana lives in Porto.");
    const lisbon = byContent(again, "Dana lives in Lisbon.");
    expect(porto).toMatchObject({
      valid_at: "2024-03-10T00:00:00.000Z",
      invalid_at: "2026-02-14T00:00:00.000Z",
      superseded_by: lisbon.id,
      supersession: { kind: "fact_key" },
      fact_key: "home_city",
    });
    expect(lisbon).toMatchObject({ invalid_at: null, superseded_by: null, fact_key: "home_city" });
    // What holds is answered in the imported namespace as in the exported one.
    const recalled = await api("POST", "/recall", { key, body: { namespace_id: target.id, query: "Porto" } });
    expect(recalled.body.data.map((m: { memory_id: string }) => m.memory_id)).toEqual([lisbon.id]);
  });
});

describe("who may export and import", () => {
  test("a key with scopes exports only memories, and versions, within them", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const sales = await remember(key, {
      namespace_id: ns.id,
      content: "Sales target is 2M.",
      scopes: { team: "sales" },
    });
    await remember(key, {
      namespace_id: ns.id,
      content: "Support backlog is 40 tickets.",
      scopes: { team: "support" },
    });
    const moved = await remember(key, {
      namespace_id: ns.id,
      content: "Support's secret escalation number is 555-0199.",
      scopes: { team: "support" },
    });
    const patched = await api("PATCH", `/memories/${moved.id}`, {
      key,
      body: { content: "Sales may call the escalation desk.", scopes: { team: "sales" } },
    });
    expect(patched.status).toBe(200);
    const scoped = await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] });
    const { response, text, lines } = await exportLines(scoped.secret, ns.id);
    expect(response.status).toBe(200);
    expect(lines[0].scopes).toEqual({ team: "sales" });
    expect(
      lines
        .slice(1)
        .map((line) => line.id)
        .sort(),
    ).toEqual([sales.id, moved.id].sort());
    expect(text).not.toContain("555-0199");
    expect(text).not.toContain("backlog");
    const movedLine = lines.find((line) => line.id === moved.id)!;
    expect(movedLine.history.map((v: Line) => v.version)).toEqual([2]);
  });

  test("a key with scopes imports only lines carrying them: any other is 403 and nothing is imported", async () => {
    const { org, key } = await createTenant();
    const ns = await createNamespace(key);
    const scoped = await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] });
    const inside = memoryLine(1, false, { scopes: { team: "sales", region: "eu" } });
    const outside = memoryLine(2, false, { scopes: { team: "support" } });
    const unscoped = memoryLine(3);
    const historyOutside = memoryLine(4, false, {
      scopes: { team: "sales" },
      version: 2,
      history: [
        versionOf(memoryLine(4), 2, { team: "sales" }),
        versionOf(memoryLine(4, false, { content: "Support only." }), 1, { team: "support" }),
      ],
    });
    for (const line of [outside, unscoped, historyOutside]) {
      const refused = await importLines(scoped.secret, ns.id, importBody([header(), inside, line]));
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toMatch(/^Line 3\b/);
    }
    expect((await storedCounts(ns.id)).memories).toBe(0);
    const accepted = await importLines(scoped.secret, ns.id, importBody([header(), inside]));
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.imported).toBe(1);
  });

  test("another organization's namespace, or one not granted, is 404; import needs NAMESPACE_WRITE", async () => {
    const owner = await createTenant();
    const ns = await createNamespace(owner.key);
    await remember(owner.key, { namespace_id: ns.id, content: "Owner's private note." });
    const stranger = await createTenant();
    const exported = await exportLines(stranger.key, ns.id);
    expect(exported.response.status).toBe(404);
    expect(exported.response.headers.get("content-type")).toMatch(/application\/json/);
    expect(exported.body.error.code).toBe("NOT_FOUND");
    expect((await importLines(stranger.key, ns.id, importBody([header(), memoryLine(1)]))).status).toBe(404);
    const notGranted = await createKey(owner.org.id, { namespaceIds: [] });
    expect((await exportLines(notGranted.secret, ns.id)).response.status).toBe(404);
    const readOnly = await createKey(owner.org.id, { permissions: ["NAMESPACE_READ"], namespaceIds: [ns.id] });
    expect((await exportLines(readOnly.secret, ns.id)).response.status).toBe(200);
    expect((await importLines(readOnly.secret, ns.id, importBody([header(), memoryLine(1)]))).status).toBe(403);
    expect((await storedCounts(ns.id)).memories).toBe(1);
  });
});

function versionOf(line: Line, version: number, scopes: Record<string, string>): Line {
  return {
    version,
    content: line.content,
    metadata: line.metadata,
    scopes,
    identity_id: null,
    occurred_at: line.occurred_at,
    expires_at: null,
    changed_fields: version === 1 ? [] : ["content"],
    changed_by: null,
    changed_at: line.updated_at,
  };
}

describe("NDJSON bodies", () => {
  async function collect(text: string, limits = { maxBytes: 1_000, maxLines: 10, maxLineChars: 100 }) {
    const chunks = [new TextEncoder().encode(text)];
    const lines = [];
    for await (const line of ndjsonLines(
      (async function* () {
        yield* chunks;
      })(),
      limits,
    ))
      lines.push(line);
    return lines;
  }

  test("lines keep their numbers, blank ones skipped, CRLF and a missing final newline accepted", async () => {
    expect(await collect('{"a":1}\r\n\n{"b":2}')).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 3, text: '{"b":2}' },
    ]);
  });

  test("past a limit of bytes, lines or line length: 413", async () => {
    await expect(collect("x\n".repeat(600))).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(collect("x\n".repeat(11))).rejects.toThrow(/more than 10 lines/);
    await expect(collect("x".repeat(101))).rejects.toThrow(/longer than 100/);
  });
});

describe("npx memgw export | import (through the server that owns the data)", () => {
  test("round trip through files, and export to standard output", { timeout: 180_000 }, async () => {
    await serveAdminCommands(await getDatabase());
    const { key } = await createTenant();
    const { ns } = await richNamespace(key);
    const target = await createNamespace(key);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memgw-export-"));
    const file = path.join(dir, "export.ndjson");

    const exported = await memgw(["export", "--namespace", ns.id, "--vectors", "--out", file]);
    expect(exported.stderr).toBe("");
    expect(exported.code).toBe(0);
    expect(exported.json).toEqual({ out: file, lines: 6 });
    const lines = fs
      .readFileSync(file, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: "header", vectors: true, scopes: {} });

    const imported = await memgw(["import", "--namespace", target.id, "--in", file]);
    expect(imported.code).toBe(0);
    expect(imported.json).toMatchObject({ imported: 5, skipped_expired: 0 });
    const copy = await exportLines(key, target.id, "?include_vectors=true");
    expect(canonical(copy.lines.slice(1)).map(withoutId)).toEqual(canonical(lines.slice(1)).map(withoutId));

    const toStdout = await memgw(["export", "--namespace", target.id]);
    expect(toStdout.code).toBe(0);
    const stdoutLines = toStdout.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(
      stdoutLines
        .slice(1)
        .map((line) => line.id)
        .sort(),
    ).toEqual([...imported.json.memory_ids].sort());

    const missing = await memgw(["export", "--namespace", "ns_missing", "--out", path.join(dir, "missing.ndjson")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^memgw: Namespace ns_missing not found/);
    expect(fs.existsSync(path.join(dir, "missing.ndjson"))).toBe(false);

    fs.writeFileSync(path.join(dir, "bad.ndjson"), importBody([header(), memoryLine(1), "{oops"]));
    const bad = await memgw(["import", "--namespace", target.id, "--in", path.join(dir, "bad.ndjson")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Line 3/);
    expect((await storedCounts(target.id)).memories).toBe(5);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("with no server running, `export | import` through a pipe", { timeout: 180_000 }, async () => {
    const { key } = await createTenant();
    const { ns } = await richNamespace(key);
    const target = await createNamespace(key);
    const source = await exportLines(key, ns.id);
    // The CLI opens the data directory itself once this process lets go of it.
    await closeDatabase();
    const bin = path.join(process.cwd(), "bin/memgw.mjs");
    const node = process.execPath;
    const memgwCommand = `"${node}" "${bin}"`;
    const script = `${memgwCommand} export --namespace ${ns.id} | ${memgwCommand} import --namespace ${target.id}`;
    const piped = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn("sh", ["-c", script], {
        env: { ...process.env, MEMGW_PROCESS_ROLE: undefined },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ imported: 5 });
    const copy = await exportLines(key, target.id);
    expect(canonical(copy.lines.slice(1)).map(withoutId)).toEqual(canonical(source.lines.slice(1)).map(withoutId));
  });
});

describe("memories from elsewhere (lines without type)", () => {
  test("a line needs only content; optional fields are stored as remember would store them", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const before = Date.now();
    const response = await importLines(
      key,
      ns.id,
      importBody([
        { content: "Ada prefers jasmine tea." },
        {
          content: "Ada moved to Lisbon.",
          identity_id: "user-42",
          occurred_at: "2024-03-01T09:30:00+01:00",
          metadata: { source: "crm", stars: 4 },
          scopes: { team: "sales" },
          ttl_seconds: 3600,
        },
      ]),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data).toMatchObject({ imported: 2, skipped_expired: 0 });
    const { lines } = await exportLines(key, ns.id);
    const byContent = Object.fromEntries(lines.slice(1).map((line) => [line.content, line]));
    const plain = byContent["Ada prefers jasmine tea."];
    expect(plain).toMatchObject({
      metadata: {},
      scopes: {},
      identity_id: null,
      session_id: null,
      position: null,
      role: null,
      expires_at: null,
      version: 1,
    });
    expect(Date.parse(plain.occurred_at)).toBeGreaterThanOrEqual(before - 1000);
    // Its first version is the import's, written by the importing key.
    expect(plain.history).toEqual([
      expect.objectContaining({ version: 1, changed_by: expect.objectContaining({ kind: "api_key" }) }),
    ]);
    const full = byContent["Ada moved to Lisbon."];
    expect(full).toMatchObject({
      identity_id: "user-42",
      occurred_at: "2024-03-01T08:30:00.000Z",
      metadata: { source: "crm", stars: 4 },
      scopes: { team: "sales" },
    });
    expect(Date.parse(full.expires_at) - before).toBeGreaterThan(3500_000);
    expect(await recallContents(key, { namespace_id: ns.id, query: "Where does Ada live now?" })).toContain(
      "Ada moved to Lisbon.",
    );
  });

  test("turns with a session_id are appended to that session in the order of their lines", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    await remember(key, {
      namespace_id: ns.id,
      session_id: "chat-7",
      messages: [
        { role: "user", content: "Can you book the call?" },
        { role: "assistant", content: "Booked for Thursday." },
      ],
    });
    const response = await importLines(
      key,
      ns.id,
      importBody([
        { content: "Can we move it to Friday?", session_id: "chat-7", role: "user" },
        { content: "A note outside the chat." },
        { content: "Moved to Friday.", session_id: "chat-7", role: "assistant" },
        { content: "A new chat starts here.", session_id: "chat-8", role: "user" },
      ]),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const { lines } = await exportLines(key, ns.id);
    const turns = (session: string) =>
      lines.filter((line) => line.session_id === session).map((line) => [line.position, line.role, line.content]);
    expect(turns("chat-7")).toEqual([
      [0, "user", "Can you book the call?"],
      [1, "assistant", "Booked for Thursday."],
      [2, "user", "Can we move it to Friday?"],
      [3, "assistant", "Moved to Friday."],
    ]);
    expect(turns("chat-8")).toEqual([[0, "user", "A new chat starts here."]]);
    // The next remember continues after the imported turns.
    const [next] = await remember(key, {
      namespace_id: ns.id,
      session_id: "chat-7",
      messages: [{ role: "user", content: "Thanks!" }],
    });
    expect(next.position).toBe(4);

    // One session sent both ways in one import is refused: the appended turns would collide.
    const mixed = await importLines(
      key,
      ns.id,
      importBody([
        header(),
        memoryLine(1, false, { session_id: "chat-9", position: 0, role: "user" }),
        { content: "And this one?", session_id: "chat-9", role: "user" },
      ]),
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toMatch(
      /^Line 3: session "chat-9" has turns with positions \(line 2\) and without/,
    );
    // A role without a session is not a turn.
    const roleAlone = await importLines(key, ns.id, importBody([{ content: "Hello", role: "user" }]));
    expect(roleAlone.status).toBe(400);
    expect(roleAlone.body.error.details).toEqual([
      { field: "line.1.role", message: "role belongs to a conversation turn (give session_id)" },
    ]);
  });

  test("another tool's field names are refused with the field meant, on import and on remember", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    const mem0 = await importLines(
      key,
      ns.id,
      importBody([{ content: "Fine." }, { memory: "Likes tea", user_id: "alice", id: "f38b689d" }]),
    );
    expect(mem0.status).toBe(400);
    expect(mem0.body.error.message).toBe(
      "Line 2 is not a valid memory (content: must be a string; memory: unknown field; use content; " +
        "user_id: unknown field; use identity_id; id: unknown field; every imported memory gets a new id " +
        "(keep the old one in metadata)).",
    );
    expect(mem0.body.error.details).toContainEqual({
      field: "line.2",
      message:
        "memory: unknown field; use content; user_id: unknown field; use identity_id; " +
        "id: unknown field; every imported memory gets a new id (keep the old one in metadata)",
    });
    // A line of an export missing its fields says which form to use.
    const partial = await importLines(key, ns.id, importBody([header(), { type: "memory", content: "Half a line." }]));
    expect(partial.status).toBe(400);
    expect(partial.body.error.message).toContain('a memory from elsewhere needs only content: leave out "type"');
    expect((await storedCounts(ns.id)).memories).toBe(0);

    const remembered = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Likes tea", user_id: "alice" },
    });
    expect(remembered.status).toBe(400);
    expect(remembered.body.error.details).toEqual([
      { field: "body", message: "user_id: unknown field; use identity_id" },
    ]);
    const batch = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, memories: [{ text: "Likes tea" }] },
    });
    expect(batch.body.error.details).toContainEqual({
      field: "body.memories.0",
      message: "text: unknown field; use content",
    });
    // A key named like a property every object inherits is just an unknown field, not a hint.
    const inherited = await api("POST", "/remember", {
      key,
      body: { namespace_id: ns.id, content: "Likes tea", constructor: 1, toString: 2 },
    });
    expect(inherited.body.error.details).toEqual([
      { field: "body", message: "constructor: unknown field; toString: unknown field" },
    ]);
  });

  test("a Mem0 export converted with the jq line of docs/api.md imports as documented", async () => {
    const { key } = await createTenant();
    const ns = await createNamespace(key);
    // The conversion exactly as the documentation prints it.
    const docs = fs.readFileSync(path.join(import.meta.dirname, "../../docs/api.md"), "utf8");
    const command = /^jq -c '(.+)' mem0\.json > memories\.ndjson$/m.exec(docs);
    expect(command, "docs/api.md shows the jq conversion").not.toBeNull();
    const fixture = path.join(import.meta.dirname, "../fixtures/mem0-get-all.json");
    const converted = execFileSync("jq", ["-c", command![1], fixture], { encoding: "utf8" });
    // Older clients and the hosted API give a plain array: the same line converts it the same way.
    const asArray = JSON.stringify(JSON.parse(fs.readFileSync(fixture, "utf8")).results);
    expect(execFileSync("jq", ["-c", command![1]], { input: asArray, encoding: "utf8" })).toBe(converted);

    const response = await importLines(key, ns.id, converted);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.imported).toBe(3);
    const { lines } = await exportLines(key, ns.id);
    const byContent = Object.fromEntries(lines.slice(1).map((line) => [line.content, line]));
    expect(byContent["Is travelling to Paris in July"]).toMatchObject({
      identity_id: "alex",
      occurred_at: "2024-07-26T06:57:00.108Z",
      metadata: { mem0_id: "f38b689d-6b24-45b7-bced-17fbb4d8bac7" },
      scopes: {},
    });
    expect(byContent["Is vegetarian and allergic to nuts"]).toMatchObject({
      identity_id: "alex",
      // Mem0's list-valued metadata (tags) cannot be a flat value: left out; categories are joined.
      metadata: {
        source: "onboarding",
        confidence: 0.9,
        mem0_id: "0a2b9c41-7d3e-4f10-9b6a-5c2e8d1f3a77",
        agent_id: "travel-assistant",
        categories: "food,health",
      },
    });
    expect(byContent["Prefers window seats on long flights"]).toMatchObject({
      identity_id: "sam",
      occurred_at: "2024-09-14T06:01:09.000Z",
      metadata: { channel: "chat", run_id: "trip-planning-42" },
    });
    const forAlex = await api("POST", "/recall", {
      key,
      body: { namespace_id: ns.id, query: "what does the user eat", identity_id: "alex" },
    });
    expect(forAlex.body.data.map((match: Line) => match.content)).toContain("Is vegetarian and allergic to nuts");
    expect(forAlex.body.data.map((match: Line) => match.identity_id)).not.toContain("sam");
  });

  test("attacker's view: the key's scopes bound the lines; no line reaches another namespace's memories", async () => {
    const victim = await createTenant("Victim");
    const victimNs = await createNamespace(victim.key);
    const secret = await remember(victim.key, { namespace_id: victimNs.id, content: "The vault code is 4711." });
    const { org, key } = await createTenant("Attacker");
    const ns = await createNamespace(key);
    const scoped = await createKey(org.id, { scopes: { team: "sales" }, namespaceIds: [ns.id] });

    // The key's scopes are added to a line from elsewhere; a contradiction is 403 and nothing is stored.
    const contradiction = await importLines(
      scoped.secret,
      ns.id,
      importBody([{ content: "Inside." }, { content: "Outside.", scopes: { team: "support" } }]),
    );
    expect(contradiction.status).toBe(403);
    expect(contradiction.body.error.message).toMatch(/^Line 2: /);
    expect((await storedCounts(ns.id)).memories).toBe(0);
    const accepted = await importLines(
      scoped.secret,
      ns.id,
      importBody([{ content: "Inside.", scopes: { region: "eu" } }]),
    );
    expect(accepted.status).toBe(201);
    const { lines } = await exportLines(key, ns.id);
    expect(lines[1]).toMatchObject({ content: "Inside.", scopes: { team: "sales", region: "eu" } });

    // An export line naming the victim's memory id is stored as a new memory of the importer's namespace.
    const stolen = await importLines(
      key,
      ns.id,
      importBody([header(), memoryLine(1, false, { id: secret.id, content: "Overwritten!" })]),
    );
    expect(stolen.status).toBe(201);
    expect(stolen.body.data.memory_ids[0]).not.toBe(secret.id);
    const victimView = await api("GET", `/memories/${secret.id}`, { key: victim.key });
    expect(victimView.body.data).toMatchObject({ content: "The vault code is 4711.", namespace_id: victimNs.id });
    // Nor can the attacker import into the victim's namespace, with either form.
    expect((await importLines(key, victimNs.id, importBody([{ content: "Planted." }]))).status).toBe(404);
    expect((await storedCounts(victimNs.id)).memories).toBe(1);
  });
});
