// Streamed answers without a server of ours: NDJSON split anywhere still parses, and an export that stalls,
// is aborted, or is left early ends its transfer (the sender sees its connection closed).
import http from "node:http";
import type net from "node:net";
import { afterEach, expect, test } from "vitest";
import { MemoryGateway, TimeoutError } from "@memory-gateway/client";
import { parseNdjson } from "../src/ndjson";

/** A stream of `bytes` cut into pieces of `size` bytes. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, (offset += size)));
    },
  });
}

async function parsed(text: string, size: number): Promise<unknown[]> {
  const values = [];
  const stream = chunked(new TextEncoder().encode(text), size);
  for await (const value of parseNdjson(stream, { idleTimeoutMs: 5000 })) values.push(value);
  return values;
}

test("NDJSON cut into pieces anywhere, even inside a character, parses to the same values", async () => {
  const values = [
    { type: "header", note: "café ☕ 𝄞" },
    { content: "a line\u2028separator, a paragraph\u2029separator and a next-line\u0085inside a string" },
    { content: "crlf ends this line" },
    { content: "the last line has no newline" },
  ];
  const [header, separators, crlf, last] = values.map((value) => JSON.stringify(value));
  const text = `${header}\n${separators}\n\n${crlf}\r\n${last}`;
  for (const size of [1, 2, 3, 7, 64, text.length]) expect(await parsed(text, size)).toEqual(values);
});

test("a line of many megabytes, in small chunks, is read whole", async () => {
  const original = "A".repeat(8 * 1024 * 1024);
  const text = `${JSON.stringify({ type: "document", original })}\n${JSON.stringify({ type: "memory" })}\n`;
  const [document, memory] = (await parsed(text, 16 * 1024)) as { type: string; original?: string }[];
  expect(document.original?.length).toBe(original.length);
  expect(memory.type).toBe("memory");
});

// A server that sends an export's header line and then nothing: it records when the client hangs up.
let server: http.Server | undefined;
afterEach(() => server?.close());

async function stallingExport() {
  const closed: Promise<void>[] = [];
  server = http.createServer((request, response) => {
    closed.push(new Promise((resolve) => response.on("close", () => resolve())));
    response.writeHead(200, { "content-type": "application/x-ndjson" });
    response.write(`${JSON.stringify({ type: "header", format: "memory-gateway-export", version: 1 })}\n`);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return { baseUrl, hungUp: () => Promise.all(closed) };
}

test("an export that stops sending fails after the idle timeout, and the connection is closed", async () => {
  const { baseUrl, hungUp } = await stallingExport();
  const mg = new MemoryGateway({ apiKey: "mgw_test", baseUrl, timeoutMs: 300 });
  const lines: unknown[] = [];
  const failure = await (async () => {
    for await (const line of mg.namespaces.export("ns_1")) lines.push(line);
  })().catch((error: unknown) => error);
  expect(lines).toHaveLength(1);
  expect(failure).toBeInstanceOf(TimeoutError);
  await hungUp();
});

test("the caller's signal aborts an export being read, and leaving the loop early ends the transfer", async () => {
  const { baseUrl, hungUp } = await stallingExport();
  const mg = new MemoryGateway({ apiKey: "mgw_test", baseUrl });
  const controller = new AbortController();
  const reading = (async () => {
    for await (const line of mg.namespaces.export("ns_1", {}, { signal: controller.signal })) {
      expect(line).toMatchObject({ type: "header" });
      setTimeout(() => controller.abort(new Error("the user left")), 50);
    }
  })();
  await expect(reading).rejects.toThrow("the user left");
  for await (const line of mg.namespaces.export("ns_1")) if (line.type === "header") break;
  await hungUp();
});
