// The embedded database on a thread of its own (lib/db/pglite-thread.ts): PGlite's WebAssembly runs each
// statement start to end without yielding, and on the server's main thread every statement held up Next,
// the HTTP parser and the JSON of every other request. This thread only passes the PostgreSQL wire
// protocol through, one exchange at a time, in the order they come.
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import fs from "node:fs";
import { parentPort } from "node:worker_threads";

let pglite;
let previous = Promise.resolve();

async function handle({ kind, dataDir, startParams, message }) {
  if (kind === "open") {
    pglite = await PGlite.create({ dataDir, extensions: { vector }, startParams });
    return { threadId: linuxThreadId() };
  }
  if (kind === "protocol") return await exchange(message);
  if (kind === "close") {
    await pglite?.close();
    pglite = undefined;
    return undefined;
  }
  throw new Error(`The embedded database's thread got an unknown request: ${JSON.stringify(kind)}.`);
}

/**
 * The database's answer to protocol messages, as bytes. Not execProtocolRaw: that one also parses every
 * answer into a list it never empties (execProtocol does), and the list grew by every answer sent.
 */
async function exchange(message) {
  const chunks = [];
  // The bytes are a view of the module's memory, reused for the next ones: copied.
  await pglite.execProtocolRawStream(message, { syncToFs: false, onRawData: (bytes) => chunks.push(bytes.slice()) });
  if (chunks.length === 1) return chunks[0];
  const answer = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  chunks.reduce((offset, chunk) => (answer.set(chunk, offset), offset + chunk.length), 0);
  return answer;
}

/** This thread's id as Linux's tools show it (`top -H`, /proc/PID/task), for telling its CPU time apart. */
function linuxThreadId() {
  try {
    return Number(fs.readlinkSync("/proc/thread-self").split("/").pop()) || undefined;
  } catch {
    return undefined; // not Linux
  }
}

parentPort.on("message", (request) => {
  previous = previous.then(async () => {
    try {
      const data = await handle(request);
      parentPort.postMessage({ id: request.id, data }, data instanceof Uint8Array ? [data.buffer] : []);
    } catch (error) {
      parentPort.postMessage({ id: request.id, error: { message: String(error?.message ?? error) } });
    }
  });
});
