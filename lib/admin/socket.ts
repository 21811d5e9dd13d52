import { createHash } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { dataDir } from "@/lib/config";
import type { Database } from "@/lib/db";
import { DomainError, UpstreamError } from "@/lib/errors";
import { describeError, type ErrorCode } from "@/lib/http/errors";
import { ItemStream, NDJSON } from "@/lib/http/ndjson";

// The process that owns a PGlite data directory serves admin commands on a unix socket beside it, so
// that `npx memgw` works while the server runs without a second process opening the same files.
// The socket is a file of mode 0600: only the user who owns the data can use it.

export function adminSocketPath(dir: string): string {
  const beside = path.join(dir, "memgw.sock");
  // Unix socket paths are limited to ~107 bytes; a deep data directory gets one in the temp directory.
  if (Buffer.byteLength(beside) < 100) return beside;
  const digest = createHash("sha256").update(dir).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `memgw-${digest}.sock`);
}

type AdminReply = { ok: true; result: unknown } | { ok: false; error: { code: ErrorCode; message: string } };

/** An admin command's failure as the process that ran it reported it: its error code and message. */
export class AdminCommandError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AdminCommandError";
  }
}

/**
 * Serves admin commands for the embedded database this process has opened, and publishes the socket in
 * the data directory's lock file for `npx memgw` to find; it stops when the database closes. Called by
 * whatever opened the database to serve from it (the server's start-up, the CLI), once.
 */
export async function serveAdminCommands(database: Database): Promise<void> {
  if (!database.lock) return; // PostgreSQL: the CLI connects to it directly
  const socket = await serveAdminSocket(dataDir());
  database.lock.update({ socketPath: socket.path });
  database.beforeClose(socket.close);
}

export async function serveAdminSocket(dir: string): Promise<{ path: string; close(): Promise<void> }> {
  const socketPath = adminSocketPath(dir);
  fs.rmSync(socketPath, { force: true }); // left by a process that died; we hold the data directory lock
  const server = http.createServer(async (request, response) => {
    if (request.url === STREAM_PATH) return serveStreamedCommand(request, response);
    let reply: AdminReply;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const { command, args } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const { runAdminCommand } = await import("./commands");
      reply = { ok: true, result: await runAdminCommand(String(command), args ?? {}) };
    } catch (error) {
      reply = failureReply(error);
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref(); // the socket alone must not keep a CLI or test process alive
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * A command that reads or writes NDJSON (export, import): the command and its arguments travel in a
 * header, its input is the request's body, as it arrives; a stream it returns is the response's body,
 * written as the CLI reads it. A failure before the first line is a JSON reply; after it, the connection
 * is cut, so the CLI never takes a partial export for a whole one.
 */
const STREAM_PATH = "/stream";
const STREAM_HEADER = "x-memgw-command";

async function serveStreamedCommand(request: http.IncomingMessage, response: http.ServerResponse) {
  const replyJson = (reply: AdminReply) =>
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
  let lines: AsyncIterator<unknown> | undefined;
  let first: IteratorResult<unknown> | undefined;
  try {
    const { command, args } = JSON.parse(decodeURIComponent(String(request.headers[STREAM_HEADER])));
    const { runAdminCommand } = await import("./commands");
    const result = await runAdminCommand(String(command), args ?? {}, request);
    if (!(result instanceof ItemStream)) return replyJson({ ok: true, result });
    lines = result.items[Symbol.asyncIterator]();
    first = await lines.next();
  } catch (error) {
    return replyJson(failureReply(error));
  }
  response.writeHead(200, { "content-type": NDJSON });
  try {
    for (let next = first; !next.done; next = await lines.next()) {
      if (!response.write(JSON.stringify(next.value) + "\n")) await once(response, "drain");
    }
    response.end();
  } catch (error) {
    console.error("[memgw] admin command failed while streaming:", error);
    response.destroy(error as Error);
  }
}

function failureReply(error: unknown): AdminReply {
  if (error instanceof DomainError) {
    const { code, message } = describeError(error);
    return { ok: false, error: { code, message } };
  }
  console.error("[memgw] admin command failed:", error);
  return { ok: false, error: { code: "INTERNAL_SERVER_ERROR", message: (error as Error).message } };
}

/**
 * Runs a command that reads or writes NDJSON in the process that owns the data directory: `input` is
 * sent as the command's input; lines it answers are written to `output`. Resolves with the command's
 * result, or with the number of lines written when it answered a stream.
 */
export function sendStreamedAdminCommand(
  socketPath: string,
  command: string,
  args: Record<string, unknown>,
  io: { input?: AsyncIterable<Uint8Array>; output?: NodeJS.WritableStream },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const headers = { [STREAM_HEADER]: encodeURIComponent(JSON.stringify({ command, args })) };
    // A socket of its own (no keep-alive reuse), so that its `connect` says when the owner was reached.
    const options = { socketPath, path: STREAM_PATH, method: "POST", headers, agent: false };
    const request = http.request(options, (response) => {
      if (response.headers["content-type"] === NDJSON) {
        writeStream(response, io.output).then((lines) => resolve({ lines }), reject);
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        try {
          const reply = JSON.parse(Buffer.concat(chunks).toString("utf8")) as AdminReply;
          if (reply.ok) resolve(reply.result);
          else reject(new AdminCommandError(reply.error.code, reply.error.message));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on("error", reject);
    if (!io.input) return void request.end();
    const input = io.input;
    // Not a byte is read before the owner answers the connection: a refused one is tried again, input intact.
    request.once("socket", (socket) =>
      socket.once("connect", () => pipeline(Readable.from(input), request).catch(reject)),
    );
  });
}

/** Copies an NDJSON response to `output` (paced by it) and counts its lines; a cut connection is an error. */
async function writeStream(response: http.IncomingMessage, output?: NodeJS.WritableStream): Promise<number> {
  let lines = 0;
  let complete = false;
  response.on("end", () => (complete = true));
  for await (const chunk of response as AsyncIterable<Buffer>) {
    for (const byte of chunk) if (byte === 10) lines++;
    if (output && !output.write(chunk)) await once(output, "drain");
  }
  if (!complete) throw new UpstreamError("The export was cut off by the server; the output is incomplete.");
  return lines;
}

/** Runs an admin command in the process that owns the data directory. */
export function sendAdminCommand(socketPath: string, command: string, args: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, path: "/", method: "POST", headers: { "content-type": "application/json" } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          try {
            const reply = JSON.parse(Buffer.concat(chunks).toString("utf8")) as AdminReply;
            if (reply.ok) resolve(reply.result);
            else reject(new AdminCommandError(reply.error.code, reply.error.message));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ command, args }));
  });
}
