import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { dataDir } from "@/lib/config";
import type { Database } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { describeError, type ErrorCode } from "@/lib/http/errors";

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
    let reply: AdminReply;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const { command, args } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const { runAdminCommand } = await import("./commands");
      reply = { ok: true, result: await runAdminCommand(String(command), args ?? {}) };
    } catch (error) {
      if (error instanceof DomainError) {
        const { code, message } = describeError(error);
        reply = { ok: false, error: { code, message } };
      } else {
        console.error("[memgw] admin command failed:", error);
        reply = { ok: false, error: { code: "INTERNAL_SERVER_ERROR", message: (error as Error).message } };
      }
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
